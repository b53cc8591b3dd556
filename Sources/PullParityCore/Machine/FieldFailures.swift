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
  /// The earliest horizon at which a judgement still open can be made; `nil` when none is.
  private(set) var judgeAgainAt: Double?
  private var findings: [Violation] = []

  init(state: SessionState, profile: Profile, horizon: Double) {
    self.state = state
    self.profile = profile
    self.horizon = horizon
  }

  /// Judges both rules into `metrics` and returns their findings; sets `judgeAgainAt`.
  mutating func judge(_ metrics: inout SessionMetrics) -> [Violation] {
    // Copies: the messages below read them while `awaited` changes `self`.
    let (state, profile) = (self.state, self.profile)
    if let started = state.refreshStartedAt {
      metrics.stuckRefresh = awaited(
        .stuckRefresh, deadline: started + profile.stuckAfterMs, cameAt: state.indicatorHiddenAt, over: false,
        expected: "indicator hidden ≤ \(NumberText.format(profile.stuckAfterMs)) ms after refresh_start",
        late: { "hidden \(NumberText.format($0 - started)) ms after refresh_start" },
        // Not how long it has been: that grows with the data, and a verdict must not depend on
        // when it was reached.
        never: "still \(state.phase.rawValue), no indicator_hidden, when the data moved past that time")
    }
    if let released = state.armedReleaseAt {
      // Cancelled after the armed release: the pull is over and nothing refreshed.
      let cancelled = state.phase == .cancelled
      metrics.droppedRefresh = awaited(
        .droppedRefresh, deadline: released + profile.refreshWithinMs, cameAt: state.refreshStartedAt,
        over: cancelled,
        expected: "refresh_start ≤ \(NumberText.format(profile.refreshWithinMs)) ms after the armed release",
        late: { "refresh_start \(NumberText.format($0 - released)) ms after the release" },
        never: cancelled ? "cancelled after the armed release" : "no refresh_start")
    }
    return findings
  }

  /// A rule about something awaited by `deadline`: broken when it came later, or when it never
  /// came and the wait is over (`over`, or the data has moved past the deadline); `nil` while it
  /// may still come, and then the deadline is when to judge again.
  private mutating func awaited(
    _ kind: ViolationKind, deadline: Double, cameAt: Double?, over: Bool, expected: String,
    late: (Double) -> String, never: String
  ) -> Bool? {
    if let cameAt {
      return SessionMetrics.flagged(cameAt > deadline + SessionMetrics.comparisonSlack, in: &findings) {
        Violation(kind: kind, at: deadline, expected: expected, actual: late(cameAt))
      }
    }
    guard over || horizon >= deadline else {
      judgeAgainAt = min(judgeAgainAt ?? deadline, deadline)
      return nil
    }
    return SessionMetrics.flagged(true, in: &findings) {
      Violation(kind: kind, at: deadline, expected: expected, actual: never)
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
