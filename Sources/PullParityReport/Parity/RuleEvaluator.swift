package import PullParityCore
package import PullParityStore

/// Which sessions a rule judges and which of them broke it: the one definition that the parity
/// report's rule table, `compare` and the QA checklist all count with.
package enum RuleEvaluator {
  /// The sessions `rule` applies to, and those of them that broke it.
  package static func judge(_ rule: ProfileRule, sessions: [SessionRecord], profile: Profile) -> SessionTally {
    let cacheScreens = Set(profile.cacheInvalidationScreens)
    var tally = SessionTally()
    sessions.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        guard let failed = verdict(rule, buffer[index], cacheScreens: cacheScreens) else { continue }
        tally.add(failed: failed, id: buffer[index].sessionID)
      }
    }
    return tally
  }

  /// Whether `rule` judges `session` (`nil`: it does not) and, if so, whether the session broke
  /// it: the one definition every count of a rule is made with.
  ///
  /// Hold rules judge completed sessions (where the flags are defined), label copy the sessions
  /// of a profile with labels, arm mismatch the sessions where the client armed, cache order
  /// the sessions on the screens that require it (`cacheScreens`, the profile's) and any that
  /// broke it elsewhere; stuck and dropped refreshes the sessions whose refresh or armed release
  /// could be judged, refresh before release the pulls whose gesture was recorded, repeated
  /// refresh the refreshes of sessions with an `install_id`; the other rules every session,
  /// since any session may break them.
  @inline(__always)
  package static func verdict(_ rule: ProfileRule, _ session: SessionRecord, cacheScreens: Set<String>) -> Bool? {
    let m = session.metrics
    switch rule {
    case .holdCompliance: return m.holdCompliant.map { !$0 }
    case .flash: return m.flash
    case .prematureHide: return m.prematureHide
    case .lateHide: return m.lateHide
    case .labelText: return m.labelViolations.map { $0 > 0 }
    case .armMismatch: return m.armMismatch
    case .cacheOrder:
      let broke = session.violationKinds.contains(ViolationKinds(.cacheOrder))
      return broke || session.screen.map(cacheScreens.contains) == true ? broke : nil
    case .stuckRefresh: return m.stuckRefresh
    case .droppedRefresh: return m.droppedRefresh
    case .repeatedRefresh: return m.repeatedRefresh
    case .refreshBeforeRelease:
      return m.gestureObserved == true ? session.violationKinds.contains(ViolationKinds(.refreshBeforeRelease)) : nil
    case .revealOrder, .indicatorConfig, .errorNotShown, .contentClearedOnError, .doubleRefresh, .unexpectedEvent:
      return session.violationKinds.contains(ViolationKinds(rule.violationKind!))
    }
  }

  /// `rule` judged from a tally already counted: its rate, budget and verdict, judged alone
  /// until the run's figures are judged together (`FamilyJudgement`): the rate fails when its
  /// interval lies above the budget (against a 0 % budget, when any session broke it).
  package static func result(_ rule: ProfileRule, tally: SessionTally, profile: Profile, policy: VerdictPolicy)
    -> RuleResult
  {
    let rate = tally.rate
    let budget = policy.budget(for: rule, in: profile)
    let verdict = policy.judge(n: tally.judged) { false }
    return RuleResult(
      rule: rule, rate: rate, budgetPercent: budget, verdict: verdict, examples: tally.examples,
      evidence: verdict.isJudged ? .rate(rate, budgetPercent: budget) : nil)
  }

  /// The rule judged for one platform: its rate, budget and verdict.
  package static func result(
    _ rule: ProfileRule, sessions: [SessionRecord], profile: Profile, policy: VerdictPolicy
  ) -> RuleResult {
    result(rule, tally: judge(rule, sessions: sessions, profile: profile), profile: profile, policy: policy)
  }
}
