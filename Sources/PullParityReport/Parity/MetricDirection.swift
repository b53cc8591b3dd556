/// Which way a metric gets worse, which decides when a change between cohorts is a regression.
package enum MetricDirection: String, Sendable, Codable {
  /// Rates of things that should not happen: flash, premature hide, label violations, arm
  /// mismatch.
  case higherIsWorse = "higher_is_worse"
  /// Hold compliance.
  case lowerIsWorse = "lower_is_worse"
  /// Distances and times: the goal is the profile's spec, the same on every platform, not a
  /// smaller or larger number, so a move either way beyond tolerance is a regression and none
  /// is an improvement.
  case eitherIsWorse = "either_is_worse"
  /// Arm distances under a profile with an arming point: the spec says where a pull arms, so a
  /// move toward that point is an improvement and a move away from it a regression.
  case towardTarget = "toward_target"

  package init(_ metric: ParityMetric) {
    switch metric {
    case .armDistance, .clientArmDistance, .timeToArmMs, .visibleMs: self = .eitherIsWorse
    case .holdComplianceRate: self = .lowerIsWorse
    case .flashRate, .prematureHideRate, .labelViolationRate, .armMismatchRate, .nearMissRate,
      .abandonedDuringRefreshRate:
      self = .higherIsWorse
    }
  }
}
