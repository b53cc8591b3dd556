/// The v1.1 rules for what users file (docs/events.md §5): a refresh that never ends, an armed
/// release that never refreshes, and a refresh fired again straight after the last.
///
/// The first two are about something not happening, so they wait for the data: a session whose
/// log ends before the rule's time is not judged yet (`judgeAgainAt` says from when it can be),
/// and is judged when the store's horizon for its app and platform has passed that time.
struct FieldFailures {
  let state: SessionState
  let profile: Profile
  /// How far the data has moved: at least the session's own last event.
  let horizon: Double
  /// The earliest horizon at which an open judgement can be made; `nil` when none is open.
  private(set) var judgeAgainAt: Double?

  init(state: SessionState, profile: Profile, horizon: Double) {
    self.state = state
    self.profile = profile
    self.horizon = horizon
    judgeAgainAt = [stuckDeadline, dropDeadline].compactMap { $0 }.filter { $0 > horizon }.min()
  }

  /// When the refresh must have ended by, while it has not ended.
  private var stuckDeadline: Double? {
    guard let started = state.refreshStartedAt, state.indicatorHiddenAt == nil else { return nil }
    return started + profile.stuckAfterMs
  }

  /// When the armed release's refresh must have started by, while none has and the pull is
  /// still waiting for it.
  private var dropDeadline: Double? {
    guard let released = state.armedReleaseAt, state.refreshStartedAt == nil, state.phase == .released else {
      return nil
    }
    return released + profile.refreshWithinMs
  }

  func judge(_ metrics: inout SessionMetrics) -> [Violation] {
    var findings: [Violation] = []
    metrics.stuckRefresh = judgeStuck(&findings)
    metrics.droppedRefresh = judgeDropped(&findings)
    return findings
  }

  private func judgeStuck(_ findings: inout [Violation]) -> Bool? {
    guard let started = state.refreshStartedAt else { return nil }
    let deadline = started + profile.stuckAfterMs
    let limit = "indicator hidden ≤ \(NumberText.format(profile.stuckAfterMs)) ms after refresh_start"
    if let hidden = state.indicatorHiddenAt {
      return SessionMetrics.flagged(hidden > deadline + SessionMetrics.comparisonSlack, in: &findings) {
        Violation(
          kind: .stuckRefresh, at: deadline, expected: limit,
          actual: "hidden \(NumberText.format(hidden - started)) ms after refresh_start")
      }
    }
    guard horizon >= deadline else { return nil }
    return SessionMetrics.flagged(true, in: &findings) {
      Violation(
        kind: .stuckRefresh, at: deadline, expected: limit,
        // Not how long it has been: that grows with the data, and a verdict must not depend on
        // when it was reached.
        actual: "still \(state.phase.rawValue), no indicator_hidden, when the data moved past that time")
    }
  }

  private func judgeDropped(_ findings: inout [Violation]) -> Bool? {
    guard let released = state.armedReleaseAt else { return nil }
    let deadline = released + profile.refreshWithinMs
    let limit = "refresh_start ≤ \(NumberText.format(profile.refreshWithinMs)) ms after the armed release"
    if let started = state.refreshStartedAt {
      return SessionMetrics.flagged(started > deadline + SessionMetrics.comparisonSlack, in: &findings) {
        Violation(
          kind: .droppedRefresh, at: deadline, expected: limit,
          actual: "refresh_start \(NumberText.format(started - released)) ms after the release")
      }
    }
    // Cancelled after the armed release: the pull is over and nothing refreshed.
    guard state.phase == .cancelled || horizon >= deadline else { return nil }
    return SessionMetrics.flagged(true, in: &findings) {
      Violation(
        kind: .droppedRefresh, at: deadline, expected: limit,
        actual: state.phase == .cancelled ? "cancelled after the armed release" : "no refresh_start")
    }
  }

  /// A refresh starting within `repeat_within_ms` of the end of the previous refresh on the same
  /// install and screen (the store finds that one).
  static func judgeRepeat(
    _ metrics: inout SessionMetrics, startedAt: Double, previousEndedAt: Double?, profile: Profile
  ) -> [Violation] {
    var findings: [Violation] = []
    guard let previousEndedAt else {
      metrics.repeatedRefresh = false
      return findings
    }
    let gap = startedAt - previousEndedAt
    metrics.repeatedRefresh = SessionMetrics.flagged(
      gap < profile.repeatWithinMs - SessionMetrics.comparisonSlack, in: &findings
    ) {
      Violation(
        kind: .repeatedRefresh, at: startedAt,
        expected: "≥ \(NumberText.format(profile.repeatWithinMs)) ms after the previous refresh ended",
        actual: "\(NumberText.format(gap)) ms after the previous refresh ended")
    }
    return findings
  }
}
