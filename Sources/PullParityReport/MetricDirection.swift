/// Which way a metric gets worse, which decides when a change between cohorts is a regression.
public enum MetricDirection: String, Sendable, Codable {
  /// Rates of things that should not happen: flash, premature hide, label violations, arm
  /// mismatch.
  case higherIsWorse = "higher_is_worse"
  /// Hold compliance.
  case lowerIsWorse = "lower_is_worse"
  /// Distances and times: the goal is the profile's spec, the same on every platform, not a
  /// smaller or larger number, so a move either way beyond tolerance is a regression and none
  /// is an improvement.
  case eitherIsWorse = "either_is_worse"

  public init(_ metric: ParityMetric) {
    switch metric {
    case .armDistance, .clientArmDistance, .timeToArmMs, .visibleMs: self = .eitherIsWorse
    case .holdComplianceRate: self = .lowerIsWorse
    case .flashRate, .prematureHideRate, .labelViolationRate, .armMismatchRate: self = .higherIsWorse
    }
  }

  /// The verdict on `delta` = candidate − baseline. A change of exactly the tolerance is still
  /// unchanged, as parity is in `report`.
  public func verdict(delta: Double, tolerance: Double) -> CohortVerdict {
    // The same hair of slack as `report`, for values equal in decimal but not in binary.
    let limit = tolerance + 1e-9
    switch self {
    case .higherIsWorse:
      return delta > limit ? .regression : delta < -limit ? .improvement : .unchanged
    case .lowerIsWorse:
      return delta < -limit ? .regression : delta > limit ? .improvement : .unchanged
    case .eitherIsWorse:
      return abs(delta) > limit ? .regression : .unchanged
    }
  }

  /// For the text table: the direction in which a change counts against the candidate.
  public var worseWhen: String {
    switch self {
    case .higherIsWorse: "higher"
    case .lowerIsWorse: "lower"
    case .eitherIsWorse: "either"
    }
  }
}
