/// The finger's part of a session: the pull, arming, the release or the cancel, and the tap on an
/// already-selected tab that scrolls to the top.
enum GestureReducer {
  static func reduce(_ state: inout SessionState, _ payload: EventPayload, at: Double, profile: Profile) -> [Violation]?
  {
    switch (state.phase, payload) {
    case (.idle, .pullStart):
      state.phase = .pulling
      state.pullStartedAt = at
      state.lastPullSampleAt = at
      state.lastPullDistance = 0
    case (.pulling, .pullMove(let distance, let offset)), (.armed, .pullMove(let distance, let offset)):
      recordSample(&state, at: at, distance: distance, offset: offset, profile: profile)
      guard profile.armThreshold != nil else { return [] }
      if profile.arms(atDistance: distance) {
        state.phase = .armed
        if state.machineArm == nil { state.machineArm = ArmPoint(at: at, distance: distance) }
      } else {
        state.phase = .pulling
      }
    case (.pulling, .armed(let distance)), (.armed, .armed(let distance)):
      reach(&state, distance)
      if state.clientArm == nil { state.clientArm = ArmPoint(at: at, distance: distance) }
      // Without a threshold of its own the profile trusts the client to say when it armed.
      if profile.armThreshold == nil {
        state.phase = .armed
        if state.machineArm == nil { state.machineArm = ArmPoint(at: at, distance: distance) }
      }
    case (.pulling, .disarmed), (.armed, .disarmed):
      if profile.armThreshold == nil { state.phase = .pulling }
    case (.armed, .release(let distance)), (.pulling, .release(let distance)):
      reach(&state, distance)
      state.releaseDistance = distance
      // Released while armed, a refresh is owed; released short of arming, the pull is over.
      if state.phase == .armed {
        state.phase = .released
        state.armedReleaseAt = at
      } else {
        state.phase = .cancelled
      }
    case (.pulling, .cancel), (.armed, .cancel), (.released, .cancel):
      state.phase = .cancelled
    case (.idle, .scrollToTop):
      // Accepted and nothing more: no rule of the contract reads it (a `tab_reselect` refresh
      // is not judged on whether a scroll to the top came first).
      break
    default:
      return state.fingerStillDown ? dragAfterRefreshStarted(&state, payload) : nil
    }
    return []
  }

  /// The rest of a drag whose refresh started before the finger lifted: its samples are the
  /// gesture finishing, not findings, and its release ends it.
  private static func dragAfterRefreshStarted(_ state: inout SessionState, _ payload: EventPayload) -> [Violation]? {
    switch payload {
    case .pullMove(let distance, _), .armed(let distance), .disarmed(let distance):
      reach(&state, distance)
    case .release(let distance):
      reach(&state, distance)
      state.releaseDistance = distance
      state.fingerStillDown = false
    default:
      return nil
    }
    return []
  }

  private static func reach(_ state: inout SessionState, _ distance: Double) {
    state.furthestDistance = max(state.furthestDistance ?? distance, distance)
  }

  /// Tracks how smoothly the pull was sampled and how far the drawn offset strayed from the
  /// profile's resistance. A gap between samples counts only when the finger moved during it by
  /// more than the drag tolerance (drawn): a still finger sends no `touchmove`, and the
  /// indicator cannot lag a finger that did not move.
  private static func recordSample(
    _ state: inout SessionState, at: Double, distance: Double, offset: Double?, profile: Profile
  ) {
    reach(&state, distance)
    // Samples are most of a log's events: the drawn offset is worked out once per sample.
    let drawn = profile.resistance.drawn(atFinger: distance)
    if let last = state.lastPullSampleAt {
      let moved = abs(drawn - profile.resistance.drawn(atFinger: state.lastPullDistance ?? 0))
      if moved > SessionMetrics.dragTolerance + SessionMetrics.comparisonSlack {
        state.maxSampleGapMs = max(state.maxSampleGapMs ?? 0, at - last)
      }
    }
    state.lastPullSampleAt = at
    state.lastPullDistance = distance
    if let offset { state.maxOffsetError = max(state.maxOffsetError ?? 0, abs(offset - drawn)) }
  }
}
