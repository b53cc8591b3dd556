/// The interval a verdict was drawn from, at the confidence the run's family-wise control
/// judged the figure at. Bounds are in the figure's unit (percentage points for rates); a bound
/// the data cannot set (a median's interval on too few sessions for that confidence) is infinite.
package struct JudgedInterval: Equatable, Sendable {
  package var low: Double
  package var high: Double
  /// Two-sided, 0...1: 0.95 for a figure judged alone at 5 %.
  package var confidence: Double

  package init(low: Double, high: Double, confidence: Double) {
    (self.low, self.high, self.confidence) = (low, high, confidence)
  }

  /// The bound as JSON writes it: `nil` where the data set no bound.
  package static func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }
}
