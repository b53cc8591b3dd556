internal import PullParityCore

/// The report's own figures, in `NumberText` with every other number, so the text, Markdown,
/// CSV and HTML renderers show the same figures.
extension NumberText {
  /// A rate as a percentage with its counts: `12.5% (1/8)`, or `–` when there is none.
  static func percent(_ rate: Rate?) -> String {
    guard let rate, let value = rate.value else { return "–" }
    return "\(oneDecimal(value * 100))% (\(rate.numerator)/\(rate.denominator))"
  }

  static func tolerance(_ metric: ParityMetric, _ value: Double, unit: String = "pt") -> String {
    metric.isRate ? "±\(format(value)) pts" : "±\(format(value)) \(metric.unit(distance: unit))"
  }

  /// A confidence interval of a rate difference: `-47.9…-30.2` points.
  static func interval(_ difference: RateDifference) -> String {
    "\(oneDecimal(difference.low))…\(oneDecimal(difference.high))"
  }
}
