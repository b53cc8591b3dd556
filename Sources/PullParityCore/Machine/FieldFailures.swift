/// The v1.1 rules for what users file (docs/events.md §5), as v1.2 defines them: a refresh that
/// never ends, an armed release that never refreshes, and a refresh no gesture asked for fired
/// again on top of the last.
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
  /// The judgements still open, with the time the data must reach for each (v1.2).
  private(set) var pending: [PendingJudgement] = []
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
    // v1.2: a screen left during the refresh ended the wait then; the refresh was stuck only if
    // the indicator was still up at the rule's time (the leave came after it).
    let leftDuringRefresh = state.phase == .abandoned ? state.screenLeftAt : nil
    if let started = state.refreshStartedAt {
      metrics.stuckRefresh = awaited(
        .stuckRefresh, deadline: started + profile.stuckAfterMs, cameAt: state.indicatorHiddenAt,
        leftAt: leftDuringRefresh, over: false,
        expected: "indicator hidden ≤ \(NumberText.format(profile.stuckAfterMs)) ms after refresh_start",
        late: { "hidden \(NumberText.format($0 - started)) ms after refresh_start" },
        left: { "screen left \(NumberText.format($0 - started)) ms after refresh_start, indicator still up" },
        // Not how long it has been: that grows with the data, and a verdict must not depend on
        // when it was reached.
        never: "still \(state.phase.rawValue), no indicator_hidden, when the data moved past that time")
    }
    if let released = state.armedReleaseAt {
      // Cancelled after the armed release: the pull is over and nothing refreshed. Left after
      // it (v1.2): dropped only if the refresh was already late when the user left.
      let leftAfterRelease = state.refreshStartedAt == nil ? state.screenLeftAt : nil
      let cancelled = state.phase == .cancelled && leftAfterRelease == nil
      metrics.droppedRefresh = awaited(
        .droppedRefresh, deadline: released + profile.refreshWithinMs, cameAt: state.refreshStartedAt,
        leftAt: leftAfterRelease, over: cancelled,
        expected: "refresh_start ≤ \(NumberText.format(profile.refreshWithinMs)) ms after the armed release",
        late: { "refresh_start \(NumberText.format($0 - released)) ms after the release" },
        left: { "screen left \(NumberText.format($0 - released)) ms after the release, no refresh_start" },
        never: cancelled ? "cancelled after the armed release" : "no refresh_start")
    }
    return findings
  }

  /// A rule about something awaited by `deadline`: broken when it came later, or when it never
  /// came and the wait is over (`over`, or the data has moved past the deadline); `nil` while it
  /// may still come, and then the deadline is when to judge again. A screen left (`leftAt`) ends
  /// the wait then: broken only when the deadline had passed, as if what was awaited came then.
  private mutating func awaited(
    _ kind: ViolationKind, deadline: Double, cameAt: Double?, leftAt: Double?, over: Bool, expected: String,
    late: (Double) -> String, left: (Double) -> String, never: String
  ) -> Bool? {
    if let cameAt {
      return SessionMetrics.flagged(cameAt > deadline + SessionMetrics.comparisonSlack, in: &findings) {
        Violation(kind: kind, at: deadline, expected: expected, actual: late(cameAt))
      }
    }
    if let leftAt {
      return SessionMetrics.flagged(leftAt > deadline + SessionMetrics.comparisonSlack, in: &findings) {
        Violation(kind: kind, at: deadline, expected: expected, actual: left(leftAt))
      }
    }
    guard over || horizon >= deadline else {
      judgeAgainAt = min(judgeAgainAt ?? deadline, deadline)
      pending.append(PendingJudgement(kind: kind, decidedAt: deadline))
      return nil
    }
    return SessionMetrics.flagged(true, in: &findings) {
      Violation(kind: kind, at: deadline, expected: expected, actual: never)
    }
  }

  /// v1.2: a refresh no gesture of its own explains (its session recorded no `pull_start`)
  /// that starts while the previous refresh on the same install and screen is still running
  /// (not ended, or ending after this one starts), or within `repeat_within_ms` of that
  /// refresh's start (the store finds it). A user who pulls again is never a repeat.
  static func judgeRepeat(
    _ metrics: inout SessionMetrics, startedAt: Double, pulled: Bool, previous: SessionContext,
    profile: Profile
  ) -> [Violation] {
    var findings: [Violation] = []
    guard !pulled, let previousStartedAt = previous.previousRefreshStartedAt else {
      metrics.repeatedRefresh = false
      return findings
    }
    let gap = startedAt - previousStartedAt
    let running = previous.previousRefreshEndedAt.map { $0 > startedAt + SessionMetrics.comparisonSlack } ?? true
    let soon = gap < profile.repeatWithinMs - SessionMetrics.comparisonSlack
    metrics.repeatedRefresh = SessionMetrics.flagged(running || soon, in: &findings) {
      Violation(
        kind: .repeatedRefresh, at: startedAt,
        expected:
          "no refresh without a pull while the previous one runs or ≤ \(NumberText.format(profile.repeatWithinMs)) ms after it started",
        actual: running
          ? "refresh without a pull \(NumberText.format(gap)) ms after the previous one started, which was still running"
          : "refresh without a pull \(NumberText.format(gap)) ms after the previous one started")
    }
    return findings
  }
}
