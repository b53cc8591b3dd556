public import PullParityCore
public import PullParityStore

/// Evaluates the checklist (seed 000 items 1–6 and the equivalent checks of seeds 001 and 002)
/// for every app and platform in the data.
public struct QAChecklist {
  /// Drag tracking: how far the drawn offset may stray from `distance × resistance` (pt/px),
  /// and the longest gap between pull samples (ms) — 100 ms is 10 frames a second, where a
  /// drag visibly stutters.
  public static let maxOffsetError = 2.0
  public static let maxSampleGapMs = 100.0

  public var profiles: ProfileCatalog
  public var tolerances: ParityTolerances

  public init(profiles: ProfileCatalog, tolerances: ParityTolerances = .default) {
    self.profiles = profiles
    self.tolerances = tolerances
  }

  public func evaluate(
    sessions: [SessionRecord], violations: [ViolationRecord], filter: SessionFilter
  ) -> QAReport {
    var violationsBySession: [String: [ViolationKind]] = [:]
    for violation in violations { violationsBySession[violation.sessionID, default: []].append(violation.kind) }

    var items: [QAItemResult] = []
    let byApp = Dictionary(grouping: sessions, by: \.app)
    for app in byApp.keys.sorted() {
      let appSessions = byApp[app]!
      let profile = profiles.resolve(appSessions[0].profile)
      let byPlatform = Dictionary(grouping: appSessions, by: \.platform)
      let reference = ParityReportBuilder.referencePlatform(profile: profile, among: Array(byPlatform.keys))
      for platform in byPlatform.keys.sorted() {
        let context = Context(
          app: app, platform: platform, profile: profile, sessions: byPlatform[platform]!,
          referenceSessions: reference.flatMap { byPlatform[$0] }, referencePlatform: reference,
          violationsBySession: violationsBySession, tolerances: tolerances)
        for check in QACheck.allCases where check.applies(to: profile) {
          if let result = context.evaluate(check) { items.append(result) }
        }
      }
    }
    return QAReport(formatVersion: QAReport.formatVersion, filter: filter, items: items)
  }

  private struct Context {
    var app: String
    var platform: String
    var profile: Profile
    var sessions: [SessionRecord]
    var referenceSessions: [SessionRecord]?
    var referencePlatform: String?
    var violationsBySession: [String: [ViolationKind]]
    var tolerances: ParityTolerances

    var completed: [SessionRecord] { sessions.filter { $0.metrics.outcome == .completed } }

    func evaluate(_ check: QACheck) -> QAItemResult? {
      switch check {
      case .dragTracking:
        let pulls = sessions.filter { $0.metrics.maxSampleGapMs != nil || $0.metrics.maxOffsetError != nil }
        let failing = pulls.filter {
          ($0.metrics.maxOffsetError ?? 0) > QAChecklist.maxOffsetError
            || ($0.metrics.maxSampleGapMs ?? 0) > QAChecklist.maxSampleGapMs
        }
        let worstGap = pulls.compactMap(\.metrics.maxSampleGapMs).max()
        let worstOffset = pulls.compactMap(\.metrics.maxOffsetError).max()
        return result(
          check, checked: pulls, failing: failing,
          evidence:
            "\(failing.count) of \(pulls.count) pulls strayed (offset error > \(fmt(QAChecklist.maxOffsetError)) or sample gap > \(fmt(QAChecklist.maxSampleGapMs)) ms); worst offset error \(fmt(worstOffset)), worst gap \(fmt(worstGap)) ms"
        )

      case .armParity:
        let armed = sessions.filter { $0.metrics.armMismatch != nil }
        let mismatched = armed.filter { $0.metrics.armMismatch == true }
        let p50 = Distribution(sessions.compactMap(\.metrics.clientArmDistance)).p50
        var evidence =
          "arm_mismatch in \(mismatched.count) of \(armed.count) sessions where the client armed; client p50 \(fmt(p50))"
        var distanceOff = false
        if let referencePlatform, referencePlatform != platform, let referenceSessions {
          let referenceP50 = Distribution(referenceSessions.compactMap(\.metrics.clientArmDistance)).p50
          evidence += " vs \(referencePlatform) \(fmt(referenceP50)) (±\(fmt(tolerances.armDistance)))"
          if let p50, let referenceP50 { distanceOff = abs(p50 - referenceP50) > tolerances.armDistance + 1e-9 }
        }
        var item = result(check, checked: armed, failing: mismatched, evidence: evidence)
        if distanceOff { item.status = .fail }
        return item

      case .noFlash:
        let fast = completed.filter { ($0.metrics.loadMs ?? .infinity) < profile.minHoldMs }
        let failing = fast.filter { $0.metrics.flash == true }
        return result(
          check, checked: fast, failing: failing,
          evidence:
            "\(failing.count) of \(fast.count) fast loads (< \(fmt(profile.minHoldMs)) ms) hid before \(fmt(profile.minHoldMs)) ms"
        )

      case .noPrematureHide:
        let failing = completed.filter { $0.metrics.prematureHide == true }
        let slow = completed.count { ($0.metrics.loadMs ?? 0) >= profile.minHoldMs }
        return result(
          check, checked: completed, failing: failing,
          evidence:
            "\(failing.count) of \(completed.count) completed refreshes (\(slow) slow loads) hid before load_complete")

      case .noLateHide:
        let failing = completed.filter { $0.metrics.lateHide == true }
        return result(
          check, checked: completed, failing: failing,
          evidence:
            "\(failing.count) of \(completed.count) completed refreshes hid more than \(fmt(profile.hideSlackMs)) ms after the hold and load"
        )

      case .labelCopy:
        let labelled = sessions.filter { $0.metrics.labelViolations != nil }
        let failing = labelled.filter { ($0.metrics.labelViolations ?? 0) > 0 }
        let total = labelled.reduce(0) { $0 + ($1.metrics.labelViolations ?? 0) }
        return result(
          check, checked: labelled, failing: failing,
          evidence: "\(total) labels with other copy in \(failing.count) of \(labelled.count) sessions")

      case .emptyState:
        let empty = completed.filter(\.empty)
        let failing = empty.filter { $0.metrics.visibleMs == nil || ($0.metrics.labelViolations ?? 0) > 0 }
        return result(
          check, checked: empty, failing: failing,
          evidence: "\(failing.count) of \(empty.count) empty-state refreshes lacked the indicator or the label copy")

      case .tabReselect:
        let reselects = completed.filter { $0.metrics.trigger == .tabReselect }
        guard !reselects.isEmpty else { return nil }
        let failing = reselects.filter { $0.metrics.holdCompliant == false }
        return result(
          check, checked: reselects, failing: failing,
          evidence: "\(failing.count) of \(reselects.count) tab re-select refreshes broke the hold")

      case .indicatorConfig: return violationCheck(check, .indicatorConfig)
      case .revealOrder: return violationCheck(check, .revealOrder)
      case .cacheOrder: return violationCheck(check, .cacheOrder)
      case .contentKeptOnError: return violationCheck(check, .contentClearedOnError)
      case .errorShown: return violationCheck(check, .errorNotShown)
      case .noDoubleRefresh: return violationCheck(check, .doubleRefresh)
      }
    }

    /// Items judged by one violation kind: pass when no session of the platform has it.
    private func violationCheck(_ check: QACheck, _ kind: ViolationKind) -> QAItemResult {
      var count = 0
      var failing: [SessionRecord] = []
      for session in sessions {
        let n = violationsBySession[session.sessionID]?.count { $0 == kind } ?? 0
        if n > 0 {
          count += n
          failing.append(session)
        }
      }
      return result(
        check, checked: sessions, failing: failing,
        evidence: "\(count) \(kind.rawValue) in \(failing.count) of \(sessions.count) sessions")
    }

    private func result(
      _ check: QACheck, checked: [SessionRecord], failing: [SessionRecord], evidence: String
    ) -> QAItemResult {
      let status: QAStatus = checked.isEmpty ? .noData : (failing.isEmpty ? .pass : .fail)
      return QAItemResult(
        app: app, platform: platform, check: check, seedItem: check.seedItem, title: check.title,
        status: status, evidence: evidence, failing: failing.count, checked: checked.count,
        examples: failing.map(\.sessionID).sorted().prefix(3).map { $0 })
    }

    private func fmt(_ value: Double?) -> String {
      value.map { NumberText.format((($0 * 10).rounded()) / 10) } ?? "–"
    }
  }
}
