package import PullParityCore
internal import PullParityStore

/// What `compare` compares between two cohorts: every parity metric, then the profile's rules
/// that no metric already counts (late hide, reveal order, cache order...), so that an
/// app-specific defect that appears or is fixed shows as a change.
package enum ComparedFigure: Equatable, Sendable {
  case metric(ParityMetric)
  case rule(ProfileRule)

  /// The figures compared for an app with `profile`.
  package static func all(for profile: Profile) -> [ComparedFigure] {
    // Rules whose rate is a parity metric already (flash, hold compliance...) are not repeated.
    let counted: Set<ProfileRule> = [.holdCompliance, .flash, .prematureHide, .labelText, .armMismatch]
    return ParityMetric.allCases.map(ComparedFigure.metric)
      + ProfileRule.allCases.filter { $0.applies(to: profile) && !counted.contains($0) }.map(ComparedFigure.rule)
  }

  /// The name in JSON: the metric's, or the rule's with a `_rate` suffix.
  package var key: String {
    switch self {
    case .metric(let metric): metric.rawValue
    case .rule(let rule): rule.rawValue + "_rate"
    }
  }

  package var title: String {
    switch self {
    case .metric(let metric): metric.title
    case .rule(let rule): rule.title
    }
  }

  package var isRate: Bool {
    if case .metric(let metric) = self { return metric.isRate }
    return true
  }

  package func unit(distance: String) -> String {
    if case .metric(let metric) = self { return metric.unit(distance: distance) }
    return "%"
  }

  package var direction: MetricDirection {
    switch self {
    case .metric(let metric): MetricDirection(metric)
    case .rule: .higherIsWorse
    }
  }

  /// Where `profile` says this figure belongs: the arming point, in finger travel, for the arm
  /// distances of a profile with a threshold; `nil` for every other figure.
  package func target(_ profile: Profile) -> Double? {
    guard case .metric(let metric) = self, metric == .armDistance || metric == .clientArmDistance,
      let threshold = profile.armThreshold
    else { return nil }
    return profile.resistance.finger(forDrawn: threshold)
  }

  /// Where the reference platform puts this figure: the p50 of `reference`'s values, for an arm
  /// distance of a profile without an arming point (the next best spec there is).
  func referenceTarget(_ reference: SessionDigest, profile: Profile) -> Double? {
    guard case .metric(let metric) = self, metric == .armDistance || metric == .clientArmDistance,
      profile.armThreshold == nil
    else { return nil }
    return Distribution(reference.values[SessionDigest.valueMetrics.firstIndex(of: metric)!]).p50
  }

  var isRuleFigure: Bool {
    if case .rule = self { return true }
    return false
  }

  /// The change allowed on the worse side before it is a regression: a rule's budget for its
  /// rate (`--budget`, else the profile's), in percentage points of rise; the tolerance for a
  /// distance, a time or the near-miss rate, which no rule budgets. Parity tolerances are for
  /// differences between platforms; a change between releases is judged on its own interval.
  package func allowedChange(_ tolerances: ParityTolerances, policy: VerdictPolicy, profile: Profile) -> Double {
    if let rule = budgetedRule { return policy.budget(for: rule, in: profile) }
    if case .metric(let metric) = self { return tolerances.tolerance(for: metric) }
    return tolerances.ratePoints
  }

  /// The rule whose rate the figure is: a rule figure's own, or the rule a rate metric counts.
  package var budgetedRule: ProfileRule? {
    switch self {
    case .rule(let rule): rule
    case .metric(.flashRate): .flash
    case .metric(.prematureHideRate): .prematureHide
    case .metric(.holdComplianceRate): .holdCompliance
    case .metric(.labelViolationRate): .labelText
    case .metric(.armMismatchRate): .armMismatch
    case .metric: nil
    }
  }

  /// The cohort's figure, from the digest of its sessions: a p50 with its n, or a rate of
  /// sessions (a rule's counted as `RuleEvaluator` counts it).
  func measure(_ digest: SessionDigest) -> CohortMeasure {
    switch self {
    case .metric(let metric) where metric.isRate:
      return CohortMeasure(rate: digest.rates[SessionDigest.rateMetrics.firstIndex(of: metric)!])
    case .metric(let metric):
      return CohortMeasure(values: digest.values[SessionDigest.valueMetrics.firstIndex(of: metric)!])
    case .rule(let rule):
      return CohortMeasure(rate: digest.rules[ProfileRule.allCases.firstIndex(of: rule)!].rate)
    }
  }
}
