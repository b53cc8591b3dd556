/// One figure from the baseline cohort to the candidate: both figures, the change, and whether
/// the change is a regression.
package struct CohortDelta: Equatable, Sendable, Encodable {
  package var figure: ComparedFigure
  /// The unit of the figure (the profile's distance unit, ms or %).
  package var unit: String
  package var baseline: CohortMeasure
  package var candidate: CohortMeasure
  /// candidate − baseline: in the figure's unit, percentage points for rates. `nil` when a side
  /// has no value.
  package var delta: Double?
  /// Rates only: the 95 % confidence interval of `delta`.
  package var interval: RateDifference?
  /// In the figure's unit, percentage points for rates.
  package var tolerance: Double
  /// Where the profile says the figure should be (an arm distance's arming point), when it says:
  /// then the change is judged by whether it moved toward it.
  package var target: Double?
  package var verdict: CohortVerdict

  /// A rate regresses only when the whole interval of the change lies beyond the tolerance on
  /// the worse side; a p50 when it moves beyond the tolerance. Below the minimum sample on
  /// either side there is no verdict.
  package init(
    figure: ComparedFigure, unit: String, baseline: CohortMeasure, candidate: CohortMeasure, tolerance: Double,
    target: Double? = nil, policy: VerdictPolicy
  ) {
    self.figure = figure
    self.unit = unit
    self.baseline = baseline
    self.candidate = candidate
    self.tolerance = tolerance
    self.target = target
    if let after = candidate.rate, let before = baseline.rate {
      interval = RateDifference(after, minus: before)
    }
    guard let before = baseline.value, let after = candidate.value else {
      verdict = .noData
      return
    }
    delta = after - before
    guard min(baseline.n, candidate.n) >= policy.minSessions else {
      verdict = .insufficientData
      return
    }
    if let target {
      verdict = MetricDirection.towardTarget(before: before, after: after, target: target, tolerance: tolerance)
    } else {
      verdict = figure.direction.verdict(delta: after - before, interval: interval, tolerance: tolerance)
    }
  }

  enum CodingKeys: String, CodingKey {
    case metric, kind, unit, direction, target, baseline, candidate, delta, tolerance, verdict
    case intervalLow = "delta_ci_low"
    case intervalHigh = "delta_ci_high"
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(figure.key, forKey: .metric)
    try container.encode(figure.isRuleFigure ? "rule" : "metric", forKey: .kind)
    try container.encode(unit, forKey: .unit)
    try container.encode(target == nil ? figure.direction : .towardTarget, forKey: .direction)
    try container.encodeIfPresent(target.map(Measured.value), forKey: .target)
    try container.encode(baseline, forKey: .baseline)
    try container.encode(candidate, forKey: .candidate)
    try container.encode(figure.isRate ? Measured.percent(delta) : Measured.value(delta), forKey: .delta)
    if figure.isRate {
      try container.encode(Measured.percent(interval?.low), forKey: .intervalLow)
      try container.encode(Measured.percent(interval?.high), forKey: .intervalHigh)
    }
    try container.encode(tolerance, forKey: .tolerance)
    try container.encode(verdict, forKey: .verdict)
  }
}
