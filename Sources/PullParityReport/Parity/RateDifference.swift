/// The difference between two rates in percentage points, with its 95 % confidence interval by
/// Newcombe's hybrid score method (his method 10), built from the two Wilson intervals: it
/// behaves at 0 % and 100 % and on small samples, where the textbook interval does not.
package struct RateDifference: Equatable, Sendable {
  /// `rate` − `reference`, percentage points.
  package var points: Double
  package var low: Double
  package var high: Double

  package init?(_ rate: Rate, minus reference: Rate) {
    guard let p1 = rate.value, let p2 = reference.value, let (l1, u1) = rate.wilson(),
      let (l2, u2) = reference.wilson()
    else { return nil }
    let d = p1 - p2
    points = d * 100
    low = (d - ((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2)).squareRoot()) * 100
    high = (d + ((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2)).squareRoot()) * 100
  }

  /// The whole interval lies beyond ±`tolerance`: the rates differ by more than the tolerance,
  /// not only by chance. A difference whose interval reaches into the tolerance is not a failure.
  package func exceeds(tolerance: Double) -> Bool {
    low > tolerance + Measured.slack || high < -tolerance - Measured.slack
  }
}
