internal import PullParityCore

/// Number formats shared by the text, Markdown, CSV and HTML renderers, so every format shows
/// the same figures.
enum Formatting {
  /// One decimal, or `–` when there is no value.
  static func number(_ value: Double?) -> String {
    guard let value else { return "–" }
    return oneDecimal(value)
  }

  static func signed(_ value: Double?) -> String {
    guard let value else { return "–" }
    let text = oneDecimal(value)
    return value > 0 && text != "0.0" ? "+" + text : text
  }

  static func percent(_ rate: Rate?) -> String {
    guard let rate, let value = rate.value else { return "–" }
    return "\(oneDecimal(value * 100))% (\(rate.numerator)/\(rate.denominator))"
  }

  static func oneDecimal(_ value: Double) -> String {
    let tenths = Int64((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  static func tolerance(_ metric: ParityMetric, _ value: Double, unit: String = "pt") -> String {
    metric.isRate ? "±\(NumberText.format(value)) pts" : "±\(NumberText.format(value)) \(metric.unit(distance: unit))"
  }

  /// A confidence interval of a rate difference: `-47.9…-30.2` points.
  static func interval(_ difference: RateDifference) -> String {
    "\(oneDecimal(difference.low))…\(oneDecimal(difference.high))"
  }
}
