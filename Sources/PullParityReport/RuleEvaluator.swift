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
  package static func judge(_ rule: ProfileRule, sessions: [SessionRecord], profile: Profile) -> SessionTally {
    switch rule {
    case .holdCompliance:
      SessionTally(sessions, judges: { $0.metrics.holdCompliant != nil }, fails: { $0.metrics.holdCompliant == false })
    case .flash:
      SessionTally(sessions, judges: { $0.metrics.flash != nil }, fails: { $0.metrics.flash == true })
    case .prematureHide:
      SessionTally(
        sessions, judges: { $0.metrics.prematureHide != nil }, fails: { $0.metrics.prematureHide == true })
    case .lateHide:
      SessionTally(sessions, judges: { $0.metrics.lateHide != nil }, fails: { $0.metrics.lateHide == true })
    case .labelText:
      SessionTally(
        sessions, judges: { $0.metrics.labelViolations != nil }, fails: { ($0.metrics.labelViolations ?? 0) > 0 })
    case .armMismatch:
      SessionTally(sessions, judges: { $0.metrics.armMismatch != nil }, fails: { $0.metrics.armMismatch == true })
    case .cacheOrder:
      cacheOrder(sessions, screens: Set(profile.cacheInvalidationScreens))
    case .revealOrder, .indicatorConfig, .errorNotShown, .contentClearedOnError, .doubleRefresh:
      violated(ViolationKinds(rule.violationKind!), sessions)
    }
  }

  /// Sessions on the screens that require the order, and any session that broke it elsewhere.
  private static func cacheOrder(_ sessions: [SessionRecord], screens: Set<String>) -> SessionTally {
    let kind = ViolationKinds(.cacheOrder)
    return SessionTally(
      sessions, judges: { $0.violationKinds.contains(kind) || $0.screen.map(screens.contains) == true },
      fails: { $0.violationKinds.contains(kind) })
  }

  private static func violated(_ kind: ViolationKinds, _ sessions: [SessionRecord]) -> SessionTally {
    SessionTally(sessions, judges: { _ in true }, fails: { $0.violationKinds.contains(kind) })
  }

  /// The rule judged for one platform: its rate, budget and verdict.
  package static func result(
    _ rule: ProfileRule, sessions: [SessionRecord], profile: Profile, policy: VerdictPolicy
  ) -> RuleResult {
    let tally = judge(rule, sessions: sessions, profile: profile)
    let rate = tally.rate
    let budget = policy.budget(for: rule, in: profile)
    let verdict = policy.judge(n: tally.judged) { (rate.percent ?? 0) > budget + Measured.slack }
    return RuleResult(rule: rule, rate: rate, budgetPercent: budget, verdict: verdict, examples: tally.examples)
  }

  /// The rules `profile` asks for, judged for one platform's sessions.
  package static func results(sessions: [SessionRecord], profile: Profile, policy: VerdictPolicy) -> [RuleResult] {
    ProfileRule.allCases.filter { $0.applies(to: profile) }.map {
      result($0, sessions: sessions, profile: profile, policy: policy)
    }
  }
}
