package import PullParityCore
internal import PullParityStore

/// The checklist items one session fails, each with where on its timeline the evidence is: what
/// `pullparity session` shows under the events, so a failing `qa` item can be followed to the
/// moment that failed it. Each item is judged by the definition `qa` counts with
/// (`QATally.verdict`, `RuleEvaluator.verdict`); only the pointer to the moment is added here.
package enum SessionQA {
  package struct Failure: Equatable, Sendable {
    package var check: QACheck
    /// What failed it and when, in ms from the session's first event.
    package var evidence: String
  }

  package static func failures(_ session: DerivedSession, steps: [SessionStep], profile: Profile) -> [Failure] {
    let record = SessionRecord(
      sessionID: session.sessionID, app: session.app, profile: session.profileName,
      profileVersion: session.profileVersion, platform: session.platform, appVersion: session.appVersion,
      screen: session.screen, empty: session.empty, startedAtMs: session.startedAt, metrics: session.metrics,
      eventCount: session.eventCount, violationKinds: ViolationKinds(kinds: session.violations.map(\.kind)))
    let digestProfile = DigestProfile(profile)
    return QACheck.allCases.filter { $0.applies(to: profile) }.compactMap { check in
      guard failed(check, record, digestProfile) == true else { return nil }
      let evidence = check == .dragTracking ? dragEvidence(steps, start: session.startedAt) : findings(check, session)
      return Failure(check: check, evidence: evidence)
    }
  }

  /// Judged as `qa` judges it: by its rule, else by the item's own count.
  private static func failed(_ check: QACheck, _ record: SessionRecord, _ profile: DigestProfile) -> Bool? {
    if let rule = check.rule { return RuleEvaluator.verdict(rule, record, cacheScreens: profile.cacheScreens) }
    return check.tally?.verdict(record, profile: profile)
  }

  /// The samples where the drawn offset strayed or a gap opened while the finger moved.
  private static func dragEvidence(_ steps: [SessionStep], start: Double) -> String {
    var marks: [String] = []
    var gap = 0.0
    var offset = 0.0
    for step in steps {
      let state = step.stateAfter
      let at = "+" + NumberText.oneDecimal(step.recorded.event.timestamp - start) + " ms"
      if let newGap = state.maxSampleGapMs, newGap > gap {
        gap = newGap
        if newGap > QAChecklist.maxSampleGapMs {
          marks.append("\(NumberText.oneDecimal(newGap)) ms gap while the finger moved, at \(at)")
        }
      }
      if let newOffset = state.maxOffsetError, newOffset > offset {
        offset = newOffset
        if newOffset > QAChecklist.maxOffsetError {
          marks.append("offset off by \(NumberText.oneDecimal(newOffset)) at \(at)")
        }
      }
    }
    return marks.isEmpty ? "the drag strayed" : marks.joined(separator: "; ")
  }

  /// The session's findings that fail the item, by kind and time.
  private static func findings(_ check: QACheck, _ session: DerivedSession) -> String {
    let kinds: Set<ViolationKind> =
      switch check {
      case .noFlash: [.flash]
      case .noPrematureHide: [.prematureHide]
      case .noLateHide: [.lateHide]
      case .tabReselect, .holdCompliant: [.flash, .prematureHide, .lateHide]
      case .emptyState: [.labelText]
      default: Set([check.rule?.violationKind].compactMap { $0 })
      }
    let matched = session.violations.filter { kinds.contains($0.kind) }.map {
      "\($0.kind.rawValue) at +\(NumberText.oneDecimal($0.at - session.startedAt)) ms"
    }
    return matched.isEmpty ? "see the metrics above" : matched.joined(separator: "; ")
  }
}
