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

  package func evaluate(sessions: [SessionRecord], context: ReportContext) -> QAReport {
    evaluate(context: context) { add in sessions.forEach(add) }
  }

  /// Evaluates the sessions `sessions` hands to `add` one at a time: each is kept only in its
  /// app and platform, so nothing holds the whole selection besides.
  package func evaluate(
    context: ReportContext, sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) rethrows -> QAReport {
    var context = context
    var items: [QAItemResult] = []
    // An app is judged with the profile of its first session.
    var cells: [String: [String: [SessionRecord]]] = [:]
    var firstProfile: [String: (name: String, version: Int)] = [:]
    try sessions { session in
      context.include(session)
      cells[session.app, default: [:]][session.platform, default: []].append(session)
      if firstProfile[session.app] == nil { firstProfile[session.app] = (session.profile, session.profileVersion) }
    }
    for app in cells.keys.sorted() {
      let (profile, stamp) = profiles.profile(firstProfile[app]!.name, version: firstProfile[app]!.version)
      if !context.profiles.contains(stamp) { context.profiles.append(stamp) }
      let byPlatform = cells[app]!
      let reference = ParityReportBuilder.referencePlatform(profile: profile, among: Array(byPlatform.keys))
      for platform in byPlatform.keys.sorted() {
        let platformContext = Context(
          app: app, platform: platform, profile: profile, sessions: byPlatform[platform]!,
          referenceSessions: reference.flatMap { byPlatform[$0] }, referencePlatform: reference,
          tolerances: context.tolerances, policy: context.policy)
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
    var tolerances: ParityTolerances
    var policy: VerdictPolicy
    /// The sessions' metrics, for the figures that need nothing else: walking these copies no
    /// session (nor retains its id), which walking `sessions` did once per figure.
    let metrics: [SessionMetrics]

    init(
      app: String, platform: String, profile: Profile, sessions: [SessionRecord], referenceSessions: [SessionRecord]?,
      referencePlatform: String?, tolerances: ParityTolerances, policy: VerdictPolicy
    ) {
      (self.app, self.platform, self.profile, self.sessions) = (app, platform, profile, sessions)
      (self.referenceSessions, self.referencePlatform) = (referenceSessions, referencePlatform)
      (self.tolerances, self.policy) = (tolerances, policy)
      metrics = sessions.map(\.metrics)
    }

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
      let pulls = SessionTally(
        sessions, metrics: metrics, judges: { $0.maxSampleGapMs != nil || $0.maxOffsetError != nil },
        fails: {
          ($0.maxOffsetError ?? 0) > QAChecklist.maxOffsetError || ($0.maxSampleGapMs ?? 0) > QAChecklist.maxSampleGapMs
        })
      // A session with either figure is a pull, so the worst of each is over every session.
      let worstGap = metrics.lazy.compactMap(\.maxSampleGapMs).max()
      let worstOffset = metrics.lazy.compactMap(\.maxOffsetError).max()
      return result(
        .dragTracking, pulls,
        evidence:
          "\(pulls.failing) of \(pulls.judged) pulls strayed (offset error > \(fmt(QAChecklist.maxOffsetError)) or sample gap > \(fmt(QAChecklist.maxSampleGapMs)) ms); worst offset error \(fmt(worstOffset)), worst gap \(fmt(worstGap)) ms"
      )
    }

    /// The client's arming against the profile's, and its p50 against the reference platform's.
    private func armParity() -> QAItemResult {
      let armed = SessionTally(
        sessions, metrics: metrics, judges: { $0.armMismatch != nil }, fails: { $0.armMismatch == true })
      let p50 = Distribution(metrics.compactMap(\.clientArmDistance)).p50
      var evidence =
        "arm_mismatch in \(armed.failing) of \(armed.judged) sessions where the client armed; client p50 \(fmt(p50))"
      var distanceOff = false
      if let referencePlatform, referencePlatform != platform, let referenceSessions {
        let referenceP50 = Distribution(referenceSessions.compactMap(\.metrics.clientArmDistance)).p50
        evidence += " vs \(referencePlatform) \(fmt(referenceP50)) (±\(fmt(tolerances.armDistance)))"
        if let p50, let referenceP50 { distanceOff = abs(p50 - referenceP50) > tolerances.armDistance + Measured.slack }
      }
      var item = result(.armParity, armed, evidence: evidence)
      if distanceOff, item.status == .pass { item.status = .fail }
      return item
    }

    private func noFlash() -> QAItemResult {
      let minHold = profile.minHoldMs
      let fast = SessionTally(
        sessions, metrics: metrics, judges: { $0.outcome == .completed && ($0.loadMs ?? .infinity) < minHold },
        fails: { $0.flash == true })
      return result(
        .noFlash, fast,
        evidence:
          "\(fast.failing) of \(fast.judged) fast loads (< \(fmt(minHold)) ms) hid before \(fmt(minHold)) ms"
      )
    }

    private func noPrematureHide() -> QAItemResult {
      let completed = SessionTally(
        sessions, metrics: metrics, judges: { $0.outcome == .completed }, fails: { $0.prematureHide == true })
      let minHold = profile.minHoldMs
      let slow = metrics.count { $0.outcome == .completed && ($0.loadMs ?? 0) >= minHold }
      return result(
        .noPrematureHide, completed,
        evidence:
          "\(completed.failing) of \(completed.judged) completed refreshes (\(slow) slow loads) hid before load_complete")
    }

    private func noLateHide() -> QAItemResult {
      let completed = SessionTally(
        sessions, metrics: metrics, judges: { $0.outcome == .completed }, fails: { $0.lateHide == true })
      return result(
        .noLateHide, completed,
        evidence:
          "\(completed.failing) of \(completed.judged) completed refreshes hid more than \(fmt(profile.hideSlackMs)) ms after the hold and load"
      )
    }

    private func labelCopy() -> QAItemResult {
      let labelled = SessionTally(
        sessions, metrics: metrics, judges: { $0.labelViolations != nil }, fails: { ($0.labelViolations ?? 0) > 0 })
      let total = metrics.reduce(0) { $0 + ($1.labelViolations ?? 0) }
      return result(
        .labelCopy, labelled,
        evidence: "\(total) labels with other copy in \(labelled.failing) of \(labelled.judged) sessions")
    }

    private func emptyState() -> QAItemResult {
      let empty = SessionTally(
        sessions, judges: { $0.metrics.outcome == .completed && $0.empty },
        fails: { $0.metrics.visibleMs == nil || ($0.metrics.labelViolations ?? 0) > 0 })
      return result(
        .emptyState, empty,
        evidence: "\(empty.failing) of \(empty.judged) empty-state refreshes lacked the indicator or the label copy")
    }

    /// Only apps that log tab re-selects get this item.
    private func tabReselect() -> QAItemResult? {
      let reselects = SessionTally(
        sessions, metrics: metrics, judges: { $0.outcome == .completed && $0.trigger == .tabReselect },
        fails: { $0.holdCompliant == false })
      guard reselects.judged > 0 else { return nil }
      return result(
        .tabReselect, reselects,
        evidence: "\(reselects.failing) of \(reselects.judged) tab re-select refreshes broke the hold")
    }

    /// Items that are one rule of the profile, counted as the report's rule table counts them.
    private func ruleCheck(_ check: QACheck, _ rule: ProfileRule) -> QAItemResult {
      let tally = RuleEvaluator.judge(rule, sessions: sessions, profile: profile)
      return result(check, tally, evidence: "\(rule.rawValue) in \(tally.failing) of \(tally.judged) sessions")
    }

    private func result(_ check: QACheck, _ tally: SessionTally, evidence: String) -> QAItemResult {
      let status = policy.judge(n: tally.judged) { tally.failing > 0 }
      return QAItemResult(
        app: app, platform: platform, check: check, seedItem: check.seedItem, title: check.title,
        status: status, evidence: evidence, failing: tally.failing, checked: tally.judged,
        examples: tally.examples)
    }

    private func fmt(_ value: Double?) -> String {
      value.map { NumberText.format((($0 * 10).rounded()) / 10) } ?? "–"
    }
  }
}
