/// One figure from the baseline cohort to the candidate: both figures, the change, its interval
/// and whether the change is a regression.
package struct CohortDelta: Equatable, Sendable, Encodable {
  package var figure: ComparedFigure
  /// The unit of the figure (the profile's distance unit, ms or %).
  package var unit: String
  package var baseline: CohortMeasure
  package var candidate: CohortMeasure
  /// candidate − baseline: in the figure's unit, percentage points for rates. `nil` when a side
  /// has no value.
  package var delta: Double?
  /// The interval of `delta` at the level the run judged it at (`FamilyJudgement`).
  package var interval: JudgedInterval?
  /// The change allowed on the worse side before it is a regression, in the figure's unit: a
  /// rule's budget for its rate (percentage points), the tolerance given for a distance or a time
  /// (0 unless given).
  package var tolerance: Double
  /// Where the profile says the figure should be (an arm distance's arming point), when it says:
  /// then the change is judged by whether it moved away from it.
  package var target: Double?
  package var verdict: CohortVerdict
  /// What the verdict is drawn from, until the run's figures are judged together.
  package var evidence: Evidence?

  /// Below the minimum sample on either side there is no verdict; otherwise the figure is judged
  /// alone at 5 % until `CohortComparison` judges its figures together.
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
    guard let before = baseline.value, let after = candidate.value else {
      verdict = .noData
      return
    }
    delta = after - before
    guard min(baseline.n, candidate.n) >= policy.minSessions else {
      verdict = .insufficientData
      return
    }
    let evidence = Self.evidence(figure, baseline, candidate, allowed: tolerance, target: target)
    guard let evidence, evidence.canBeBounded else {
      verdict = .insufficientData
      return
    }
    verdict = .unchanged
    self.evidence = evidence
    record(FamilyJudgement.alone(evidence))
  }

  private static func evidence(
    _ figure: ComparedFigure, _ before: CohortMeasure, _ after: CohortMeasure, allowed: Double, target: Double?
  ) -> Evidence? {
    if let a = after.rate, let b = before.rate {
      return .rateChange(after: a, before: b, allowed: allowed, direction: figure.direction)
    }
    guard let a = after.sample, let b = before.sample else { return nil }
    if let target { return .medianTowardTarget(after: a, before: b, target: target, allowed: allowed) }
    return .shift(after: a, before: b, allowed: allowed, direction: figure.direction)
  }

  /// Takes the run's judgement: a failure is a regression; a change that would fail the other
  /// way round (the baseline against the candidate) at the same level is an improvement.
  package mutating func record(_ judgement: FamilyJudgement.Judgement?) {
    guard let judgement, let evidence else { return }
    interval = judgement.interval
    if judgement.verdict == .fail {
      verdict = .regression
    } else if let reversed = evidence.reversed, reversed.pValue <= evidence.level(of: judgement.interval) {
      verdict = .improvement
    } else {
      verdict = .unchanged
    }
  }

  enum CodingKeys: String, CodingKey {
    case metric, kind, unit, direction, target, baseline, candidate, delta, tolerance, verdict
    case intervalLow = "delta_ci_low"
    case intervalHigh = "delta_ci_high"
    case confidence = "ci_confidence"
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let isRate = figure.isRate
    func rounded(_ x: Double?) -> Double? { isRate ? Measured.percent(x) : Measured.value(x) }
    try container.encode(figure.key, forKey: .metric)
    try container.encode(figure.isRuleFigure ? "rule" : "metric", forKey: .kind)
    try container.encode(unit, forKey: .unit)
    try container.encode(target == nil ? figure.direction : .towardTarget, forKey: .direction)
    try container.encodeIfPresent(target.map(Measured.value), forKey: .target)
    try container.encode(baseline, forKey: .baseline)
    try container.encode(candidate, forKey: .candidate)
    try container.encode(rounded(delta), forKey: .delta)
    try container.encode(rounded(interval.flatMap { JudgedInterval.finite($0.low) }), forKey: .intervalLow)
    try container.encode(rounded(interval.flatMap { JudgedInterval.finite($0.high) }), forKey: .intervalHigh)
    try container.encode(interval.map { Measured.rounded($0.confidence, places: 6) }, forKey: .confidence)
    try container.encode(tolerance, forKey: .tolerance)
    try container.encode(verdict, forKey: .verdict)
  }
}
