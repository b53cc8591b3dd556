package import PullParityCore
package import PullParityStore

/// Which sessions a rule judges and which of them broke it: the one definition that the parity
/// report's rule table, `compare` and the QA checklist all count with.
package enum RuleEvaluator {
  /// The sessions `rule` applies to, and those of them that broke it.
  ///
  /// Hold rules judge completed sessions (where the flags are defined), label copy the sessions
  /// of a profile with labels, arm mismatch the sessions where the client armed, cache order
  /// the sessions on the screens that require it; the other rules every session, since any
  /// session may break them.
  package static func judge(
    _ rule: ProfileRule, sessions: [SessionRecord], violations: ViolationIndex, profile: Profile
  ) -> (judged: [SessionRecord], failing: [SessionRecord]) {
    let judged: [SessionRecord]
    let breaks: (SessionRecord) -> Bool
    switch rule {
    case .holdCompliance: return byFlag(\.holdCompliant, brokenWhen: false, sessions)
    case .flash: return byFlag(\.flash, brokenWhen: true, sessions)
    case .prematureHide: return byFlag(\.prematureHide, brokenWhen: true, sessions)
    case .lateHide: return byFlag(\.lateHide, brokenWhen: true, sessions)
    case .armMismatch: return byFlag(\.armMismatch, brokenWhen: true, sessions)
    case .labelText:
      judged = sessions.filter { $0.metrics.labelViolations != nil }
      breaks = { ($0.metrics.labelViolations ?? 0) > 0 }
    case .cacheOrder:
      let screens = Set(profile.cacheInvalidationScreens)
      breaks = { violations.session($0.sessionID, has: .cacheOrder) }
      judged = sessions.filter { $0.screen.map(screens.contains) == true || breaks($0) }
    case .revealOrder, .indicatorConfig, .errorNotShown, .contentClearedOnError, .doubleRefresh:
      let kind = rule.violationKind!
      judged = sessions
      breaks = { violations.session($0.sessionID, has: kind) }
    }
    return (judged, judged.filter(breaks))
  }

  /// A rule read off one flag of the metrics: judged where the flag is known (SQL's NULL is
  /// "did not apply"), broken where it is `brokenWhen`.
  private static func byFlag(
    _ flag: KeyPath<SessionMetrics, Bool?>, brokenWhen broken: Bool, _ sessions: [SessionRecord]
  ) -> (judged: [SessionRecord], failing: [SessionRecord]) {
    let judged = sessions.filter { $0.metrics[keyPath: flag] != nil }
    return (judged, judged.filter { $0.metrics[keyPath: flag] == broken })
  }

  /// The rule judged for one platform: its rate, budget and verdict.
  package static func result(
    _ rule: ProfileRule, sessions: [SessionRecord], violations: ViolationIndex, profile: Profile,
    policy: VerdictPolicy
  ) -> RuleResult {
    let (judged, failing) = judge(rule, sessions: sessions, violations: violations, profile: profile)
    let rate = Rate(numerator: failing.count, denominator: judged.count)
    let budget = policy.budget(for: rule, in: profile)
    let verdict = policy.judge(n: judged.count) { (rate.percent ?? 0) > budget + Measured.slack }
    return RuleResult(
      rule: rule, rate: rate, budgetPercent: budget, verdict: verdict, examples: examples(failing))
  }

  /// The rules `profile` asks for, judged for one platform's sessions.
  package static func results(
    sessions: [SessionRecord], violations: ViolationIndex, profile: Profile, policy: VerdictPolicy
  ) -> [RuleResult] {
    ProfileRule.allCases.filter { $0.applies(to: profile) }.map {
      result($0, sessions: sessions, violations: violations, profile: profile, policy: policy)
    }
  }

  /// Up to three failing session ids, in id order so that every format names the same ones.
  static func examples(_ failing: [SessionRecord]) -> [String] {
    Array(failing.map(\.sessionID).sorted().prefix(3))
  }
}
