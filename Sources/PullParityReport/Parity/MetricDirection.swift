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
    case .flashRate, .prematureHideRate, .labelViolationRate, .armMismatchRate, .nearMissRate: self = .higherIsWorse
    }
  }

  /// The verdict on `delta` = candidate − baseline. A change of exactly the tolerance is still
  /// unchanged, as parity is in `report`. With an `interval` (rates), the whole interval must
  /// lie beyond the tolerance: a change that may be chance is not a regression.
  package func verdict(delta: Double, interval: RateDifference? = nil, tolerance: Double) -> CohortVerdict {
    // The same hair of slack as `report`, for values equal in decimal but not in binary.
    let limit = tolerance + Measured.slack
    if let interval {
      let worse = self == .lowerIsWorse ? interval.high < -limit : interval.low > limit
      let better = self == .lowerIsWorse ? interval.low > limit : interval.high < -limit
      return worse ? .regression : better ? .improvement : .unchanged
    }
    switch self {
    case .higherIsWorse:
      return delta > limit ? .regression : delta < -limit ? .improvement : .unchanged
    case .lowerIsWorse:
      return delta < -limit ? .regression : delta > limit ? .improvement : .unchanged
    case .eitherIsWorse, .towardTarget:
      return abs(delta) > limit ? .regression : .unchanged
    }
  }

  /// The verdict on a move from `before` to `after` when the spec names `target`: how much
  /// nearer or farther from it the figure got. A figure within the tolerance of the target is at
  /// the spec and never regressed, however it moved.
  package static func towardTarget(before: Double, after: Double, target: Double, tolerance: Double) -> CohortVerdict {
    let limit = tolerance + Measured.slack
    let farther = abs(after - target) - abs(before - target)
    if farther > limit, abs(after - target) > limit { return .regression }
    return farther < -limit ? .improvement : .unchanged
  }
}
