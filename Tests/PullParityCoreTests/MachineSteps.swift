import PullParityCore
import PullParityTestSupport
import Testing

/// Drives the machine one event at a time and checks the whole state after each, against
/// `expected`, which the test moves on by hand between steps.
struct MachineSteps {
  let profile: Profile
  var state = SessionState()
  var expected = SessionState()

  init(profile: Profile) {
    self.profile = profile
  }

  mutating func step(
    _ event: Event, _ findings: [ViolationKind] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let found = SessionMachine.reduce(&state, event, profile: profile).map(\.kind)
    #expect(found == findings, sourceLocation: sourceLocation)
    #expect(state == expected, sourceLocation: sourceLocation)
  }

  /// A pull starting at `t0`, then one sample `gap` ms later that does not arm it.
  mutating func pull(
    at t0: Double, sampleAfter gap: Double, distance: Double, _ f: inout EventFactory,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expected.phase = .pulling
    expected.pullStartedAt = t0
    expected.lastPullSampleAt = t0
    expected.lastPullDistance = 0
    step(f.at(0, .pullStart), sourceLocation: sourceLocation)
    expected.lastPullSampleAt = t0 + gap
    expected.lastPullDistance = distance
    expected.furthestDistance = distance
    // The gap counts only when the finger moved more than the drag tolerance (drawn).
    if profile.resistance.drawn(atFinger: distance) > SessionMetrics.dragTolerance { expected.maxStepGapMs = gap }
    // An ordinary step (≤ 100 ms) measures the pull's pace.
    if gap <= SessionMetrics.ordinaryStepMs {
      expected.paceMoved = profile.resistance.drawn(atFinger: distance)
      expected.paceMs = gap
    }
    step(f.at(gap, .pullMove(distance: distance, offset: nil)), sourceLocation: sourceLocation)
  }

  /// Moves `expected`'s pace on by one ordinary step from `from` to `to` (finger), `gap` ms long.
  mutating func pace(from: Double, to: Double, gap: Double) {
    expected.paceMoved += abs(profile.resistance.drawn(atFinger: to) - profile.resistance.drawn(atFinger: from))
    expected.paceMs += gap
  }
}
