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
      if state.clientArm == nil { state.clientArm = ArmPoint(at: at, distance: distance) }
      // Without a threshold of its own the profile trusts the client to say when it armed.
      if profile.armThreshold == nil {
        state.phase = .armed
        if state.machineArm == nil { state.machineArm = ArmPoint(at: at, distance: distance) }
      }
    case (.pulling, .disarmed), (.armed, .disarmed):
      if profile.armThreshold == nil { state.phase = .pulling }
    case (.armed, .release(let distance)), (.pulling, .release(let distance)):
      state.releaseDistance = distance
      // Released while armed, a refresh follows; released short of arming, the pull is over.
      state.phase = state.phase == .armed ? .released : .cancelled
    case (.pulling, .cancel), (.armed, .cancel), (.released, .cancel):
      state.phase = .cancelled
    case (.idle, .scrollToTop):
      // Accepted and nothing more: no rule of the contract reads it (a `tab_reselect` refresh
      // is not judged on whether a scroll to the top came first).
      break
    default:
      return nil
    }
    return []
  }

  /// Tracks how smoothly the pull was sampled and how far the drawn offset strayed from the
  /// profile's resistance.
  private static func recordSample(
    _ state: inout SessionState, at: Double, distance: Double, offset: Double?, profile: Profile
  ) {
    if let last = state.lastPullSampleAt {
      state.maxSampleGapMs = max(state.maxSampleGapMs ?? 0, at - last)
    }
    state.lastPullSampleAt = at
    if let offset {
      let error = abs(offset - distance * profile.resistance)
      state.maxOffsetError = max(state.maxOffsetError ?? 0, error)
    }
  }
}
