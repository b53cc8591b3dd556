/// One metric from the baseline cohort to the candidate: both figures, the change, and whether
/// the change is a regression.
public struct CohortDelta: Equatable, Sendable, Encodable {
  public var metric: ParityMetric
  public var direction: MetricDirection
  public var baseline: CohortMeasure
  public var candidate: CohortMeasure
  /// candidate − baseline: in the metric's unit, percentage points for rates. `nil` when a side
  /// has no value.
  public var delta: Double?
  /// In the metric's unit, percentage points for rates.
  public var tolerance: Double
  public var verdict: CohortVerdict

  public init(metric: ParityMetric, baseline: CohortMeasure, candidate: CohortMeasure, tolerance: Double) {
    self.metric = metric
    self.direction = MetricDirection(metric)
    self.baseline = baseline
    self.candidate = candidate
    self.tolerance = tolerance
    if let before = baseline.value, let after = candidate.value {
      delta = after - before
      verdict = direction.verdict(delta: after - before, tolerance: tolerance)
    } else {
      delta = nil
      verdict = .noData
    }
  }

  enum CodingKeys: String, CodingKey {
    case metric, unit, direction, baseline, candidate, delta, tolerance, verdict
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(metric, forKey: .metric)
    try container.encode(metric.unit, forKey: .unit)
    try container.encode(direction, forKey: .direction)
    try container.encode(baseline, forKey: .baseline)
    try container.encode(candidate, forKey: .candidate)
    try container.encode(delta, forKey: .delta)
    try container.encode(tolerance, forKey: .tolerance)
    try container.encode(verdict, forKey: .verdict)
  }
}
