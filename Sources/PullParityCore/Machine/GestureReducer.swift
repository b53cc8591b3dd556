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
  ///
  /// v1.2, by pace: a gap longer than an ordinary step (`SessionMetrics.ordinaryStepMs`) counts
  /// only when the movement across it is in proportion to it: at least `stutterShare` of what
  /// the pull's own pace (drawn movement over time, across all its ordinary steps) covers in
  /// that time (`SessionState.maxSampleGapMs`). A page that froze shows the finger's travel
  /// during the freeze in one jump; a finger that rested and moved on shows one step at the
  /// pull's pace. A pull with no ordinary step has no pace, and a long gap counts.
  private static func recordSample(
    _ state: inout SessionState, at: Double, distance: Double, offset: Double?, profile: Profile
  ) {
    reach(&state, distance)
    // Samples are most of a log's events: the drawn offset is worked out once per sample.
    let drawn = profile.resistance.drawn(atFinger: distance)
    if let last = state.lastPullSampleAt {
      let lastDrawn = profile.resistance.drawn(atFinger: state.lastPullDistance ?? 0)
      if !extendGap(&state, at: at, drawn: drawn) { measureStep(&state, from: last, lastDrawn, to: at, drawn) }
    }
    state.lastPullSampleAt = at
    state.lastPullDistance = distance
    if let offset { state.maxOffsetError = max(state.maxOffsetError ?? 0, abs(offset - drawn)) }
  }

  /// One step from the last sample: an ordinary one adds to the pace and counts its gap when the
  /// finger moved; a long one opens a gap, judged later against the whole pull's pace.
  private static func measureStep(
    _ state: inout SessionState, from last: Double, _ lastDrawn: Double, to at: Double, _ drawn: Double
  ) {
    let moved = abs(drawn - lastDrawn)
    let gap = at - last
    let slack = SessionMetrics.comparisonSlack
    if gap <= SessionMetrics.ordinaryStepMs + slack {
      state.paceMoved += moved
      state.paceMs += gap
      if moved > SessionMetrics.dragTolerance + slack { state.maxStepGapMs = max(state.maxStepGapMs ?? 0, gap) }
    } else {
      var open = PullGap(from: last, fromDrawn: lastDrawn, to: at)
      open.take(moved: moved, over: gap)
      state.openGap = open
    }
  }

  /// The samples within an ordinary step after a long gap are measured with it, from the sample
  /// before the gap: a frozen page's catch-up jump moves the gap, a rest followed by the pull's
  /// own pace never does enough (it covers at most an ordinary step's travel, under half of what
  /// the pace covers across the gap and the step). They add nothing to the pace. Returns whether
  /// the open gap took the sample; a sample past it closes the gap.
  private static func extendGap(_ state: inout SessionState, at: Double, drawn: Double) -> Bool {
    guard var open = state.openGap else { return false }
    state.openGap = nil
    guard at - open.to <= SessionMetrics.ordinaryStepMs + SessionMetrics.comparisonSlack else {
      if open.moved > 0 { state.longGaps.append(open) }
      return false
    }
    open.take(moved: abs(drawn - open.fromDrawn), over: at - open.from)
    state.openGap = open
    return true
  }
}
