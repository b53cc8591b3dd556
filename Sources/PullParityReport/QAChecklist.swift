internal import PullParityCore
package import PullParityStore

/// Evaluates the checklist (the Padel spec's items 1–6 and the equivalent checks of the FFCI and
/// Phlock rules) for every app and platform in the data.
package struct QAChecklist {
  /// Drag tracking: how far the drawn offset may stray from `distance × resistance` (pt/px),
  /// and the longest gap between pull samples (ms) — 100 ms is 10 frames a second, where a
  /// drag visibly stutters.
  package static let maxOffsetError = 2.0
  package static let maxSampleGapMs = 100.0

  /// The profiles the sessions were derived with.
  package var profiles: SessionProfiles

  package init(profiles: SessionProfiles) {
    self.profiles = profiles
  }

  package func evaluate(sessions: [SessionRecord], violations: ViolationIndex, context: ReportContext) -> QAReport {
    var context = context
    context.span(sessions)
    var items: [QAItemResult] = []
    let byApp = Dictionary(grouping: sessions, by: \.app)
    for app in byApp.keys.sorted() {
      let appSessions = byApp[app]!
      let (profile, stamp) = profiles.profile(appSessions[0].profile, version: appSessions[0].profileVersion)
      if !context.profiles.contains(stamp) { context.profiles.append(stamp) }
      let byPlatform = Dictionary(grouping: appSessions, by: \.platform)
      let reference = ParityReportBuilder.referencePlatform(profile: profile, among: Array(byPlatform.keys))
      for platform in byPlatform.keys.sorted() {
        let platformContext = Context(
          app: app, platform: platform, profile: profile, sessions: byPlatform[platform]!,
          referenceSessions: reference.flatMap { byPlatform[$0] }, referencePlatform: reference,
          violations: violations, tolerances: context.tolerances, policy: context.policy)
        for check in QACheck.allCases where check.applies(to: profile) {
          if let result = platformContext.evaluate(check) { items.append(result) }
        }
      }
    }
    return QAReport(context: context, items: items)
  }

  private struct Context {
    var app: String
    var platform: String
    var profile: Profile
    var sessions: [SessionRecord]
    var referenceSessions: [SessionRecord]?
    var referencePlatform: String?
    var violations: ViolationIndex
    var tolerances: ParityTolerances
    var policy: VerdictPolicy

    var completed: [SessionRecord] { sessions.filter { $0.metrics.outcome == .completed } }

    func evaluate(_ check: QACheck) -> QAItemResult? {
      switch check {
      case .dragTracking: dragTracking()
      case .armParity: armParity()
      case .noFlash: noFlash()
      case .noPrematureHide: noPrematureHide()
      case .noLateHide: noLateHide()
      case .labelCopy: labelCopy()
      case .emptyState: emptyState()
      case .tabReselect: tabReselect()
      case .indicatorConfig: ruleCheck(check, .indicatorConfig)
      case .revealOrder: ruleCheck(check, .revealOrder)
      case .cacheOrder: ruleCheck(check, .cacheOrder)
      case .contentKeptOnError: ruleCheck(check, .contentClearedOnError)
      case .errorShown: ruleCheck(check, .errorNotShown)
      case .noDoubleRefresh: ruleCheck(check, .doubleRefresh)
      }
    }

    private func dragTracking() -> QAItemResult {
      let pulls = sessions.filter { $0.metrics.maxSampleGapMs != nil || $0.metrics.maxOffsetError != nil }
      let failing = pulls.filter {
        ($0.metrics.maxOffsetError ?? 0) > QAChecklist.maxOffsetError
          || ($0.metrics.maxSampleGapMs ?? 0) > QAChecklist.maxSampleGapMs
      }
      let worstGap = pulls.compactMap(\.metrics.maxSampleGapMs).max()
      let worstOffset = pulls.compactMap(\.metrics.maxOffsetError).max()
      return result(
        .dragTracking, checked: pulls, failing: failing,
        evidence:
          "\(failing.count) of \(pulls.count) pulls strayed (offset error > \(fmt(QAChecklist.maxOffsetError)) or sample gap > \(fmt(QAChecklist.maxSampleGapMs)) ms); worst offset error \(fmt(worstOffset)), worst gap \(fmt(worstGap)) ms"
      )
    }

    /// The client's arming against the profile's, and its p50 against the reference platform's.
    private func armParity() -> QAItemResult {
      let armed = sessions.filter { $0.metrics.armMismatch != nil }
      let mismatched = armed.filter { $0.metrics.armMismatch == true }
      let p50 = Distribution(sessions.compactMap(\.metrics.clientArmDistance)).p50
      var evidence =
        "arm_mismatch in \(mismatched.count) of \(armed.count) sessions where the client armed; client p50 \(fmt(p50))"
      var distanceOff = false
      if let referencePlatform, referencePlatform != platform, let referenceSessions {
        let referenceP50 = Distribution(referenceSessions.compactMap(\.metrics.clientArmDistance)).p50
        evidence += " vs \(referencePlatform) \(fmt(referenceP50)) (±\(fmt(tolerances.armDistance)))"
        if let p50, let referenceP50 { distanceOff = abs(p50 - referenceP50) > tolerances.armDistance + Measured.slack }
      }
      var item = result(.armParity, checked: armed, failing: mismatched, evidence: evidence)
      if distanceOff, item.status == .pass { item.status = .fail }
      return item
    }

    private func noFlash() -> QAItemResult {
      let fast = completed.filter { ($0.metrics.loadMs ?? .infinity) < profile.minHoldMs }
      let failing = fast.filter { $0.metrics.flash == true }
      return result(
        .noFlash, checked: fast, failing: failing,
        evidence:
          "\(failing.count) of \(fast.count) fast loads (< \(fmt(profile.minHoldMs)) ms) hid before \(fmt(profile.minHoldMs)) ms"
      )
    }

    private func noPrematureHide() -> QAItemResult {
      let failing = completed.filter { $0.metrics.prematureHide == true }
      let slow = completed.count { ($0.metrics.loadMs ?? 0) >= profile.minHoldMs }
      return result(
        .noPrematureHide, checked: completed, failing: failing,
        evidence: "\(failing.count) of \(completed.count) completed refreshes (\(slow) slow loads) hid before load_complete")
    }

    private func noLateHide() -> QAItemResult {
      let failing = completed.filter { $0.metrics.lateHide == true }
      return result(
        .noLateHide, checked: completed, failing: failing,
        evidence:
          "\(failing.count) of \(completed.count) completed refreshes hid more than \(fmt(profile.hideSlackMs)) ms after the hold and load"
      )
    }

    private func labelCopy() -> QAItemResult {
      let labelled = sessions.filter { $0.metrics.labelViolations != nil }
      let failing = labelled.filter { ($0.metrics.labelViolations ?? 0) > 0 }
      let total = labelled.reduce(0) { $0 + ($1.metrics.labelViolations ?? 0) }
      return result(
        .labelCopy, checked: labelled, failing: failing,
        evidence: "\(total) labels with other copy in \(failing.count) of \(labelled.count) sessions")
    }

    private func emptyState() -> QAItemResult {
      let empty = completed.filter(\.empty)
      let failing = empty.filter { $0.metrics.visibleMs == nil || ($0.metrics.labelViolations ?? 0) > 0 }
      return result(
        .emptyState, checked: empty, failing: failing,
        evidence: "\(failing.count) of \(empty.count) empty-state refreshes lacked the indicator or the label copy")
    }

    /// Only apps that log tab re-selects get this item.
    private func tabReselect() -> QAItemResult? {
      let reselects = completed.filter { $0.metrics.trigger == .tabReselect }
      guard !reselects.isEmpty else { return nil }
      let failing = reselects.filter { $0.metrics.holdCompliant == false }
      return result(
        .tabReselect, checked: reselects, failing: failing,
        evidence: "\(failing.count) of \(reselects.count) tab re-select refreshes broke the hold")
    }

    /// Items that are one rule of the profile, counted as the report's rule table counts them.
    private func ruleCheck(_ check: QACheck, _ rule: ProfileRule) -> QAItemResult {
      let (judged, failing) = RuleEvaluator.judge(rule, sessions: sessions, violations: violations, profile: profile)
      return result(
        check, checked: judged, failing: failing,
        evidence: "\(rule.rawValue) in \(failing.count) of \(judged.count) sessions")
    }

    private func result(
      _ check: QACheck, checked: [SessionRecord], failing: [SessionRecord], evidence: String
    ) -> QAItemResult {
      let status = policy.judge(n: checked.count) { !failing.isEmpty }
      return QAItemResult(
        app: app, platform: platform, check: check, seedItem: check.seedItem, title: check.title,
        status: status, evidence: evidence, failing: failing.count, checked: checked.count,
        examples: RuleEvaluator.examples(failing))
    }

    private func fmt(_ value: Double?) -> String {
      value.map { NumberText.format((($0 * 10).rounded()) / 10) } ?? "–"
    }
  }
}
