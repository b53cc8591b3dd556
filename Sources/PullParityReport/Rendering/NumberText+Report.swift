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

  /// An interval of a verdict: `-47.9…-30.2`; a bound the data cannot set is `-∞` or `∞`.
  static func interval(_ interval: JudgedInterval) -> String {
    func bound(_ x: Double) -> String { x.isFinite ? oneDecimal(x) : x < 0 ? "-∞" : "∞" }
    return "\(bound(interval.low))…\(bound(interval.high))"
  }

  /// `99.79% CI`: the confidence the run judged the figure at (5 % shared by its figures).
  static func confidence(_ interval: JudgedInterval) -> String { level(interval) + " CI" }

  /// `99.79%`: the confidence alone, rounded down so that it never claims more.
  static func level(_ interval: JudgedInterval) -> String {
    "\(format((interval.confidence * 10_000).rounded(.down) / 100))%"
  }
}
