import PullParityCore
import PullParityTestSupport
import Testing

/// The machine step by step: after every event, the whole state is what a person working
/// through the contract by hand expects.
@Suite struct SessionMachineTests {
  let padel = BuiltInProfiles.padel
  let t0 = 1_795_000_000_000.0

  @Test func padelPullRefreshStepByStep() {
    var f = EventFactory(platform: "ios")
    var state = SessionState()
    var expected = SessionState()

    func step(_ event: Event, _ findings: [Violation] = []) {
      #expect(SessionMachine.reduce(&state, event, profile: padel) == findings)
      #expect(state == expected)
    }
    // Each ordinary step (≤ 100 ms) adds its drawn movement and its time to the pull's pace.
    func pace(_ from: Double, _ to: Double, _ gap: Double) {
      expected.paceMoved += abs(padel.resistance.drawn(atFinger: to) - padel.resistance.drawn(atFinger: from))
      expected.paceMs += gap
    }

    expected.phase = .pulling
    expected.pullStartedAt = t0
    expected.lastPullSampleAt = t0
    expected.lastPullDistance = 0
    step(f.at(0, .pullStart))

    // 10 × 0.72 = 7.2 < 24: still pulling.
    expected.lastPullSampleAt = t0 + 16
    expected.lastPullDistance = 10
    expected.furthestDistance = 10
    expected.maxStepGapMs = 16
    expected.maxOffsetError = abs(7.5 - 10 * 0.72)
    pace(0, 10, 16)
    step(f.at(16, .pullMove(distance: 10, offset: 7.5)))

    // 34 × 0.72 = 24.48 ≥ 24: the machine arms on this sample.
    expected.phase = .armed
    expected.machineArm = ArmPoint(at: t0 + 60, distance: 34)
    expected.lastPullSampleAt = t0 + 60
    expected.lastPullDistance = 34
    expected.furthestDistance = 34
    expected.maxStepGapMs = 44
    pace(10, 34, 44)
    step(f.at(60, .pullMove(distance: 34, offset: 24.48)))

    // The client's own `armed` is recorded, not obeyed (padel has a threshold).
    expected.clientArm = ArmPoint(at: t0 + 62, distance: 34)
    step(f.at(62, .armed(distance: 34)))

    // NFD spelling of the ready copy is the same copy.
    step(f.at(63, .label(text: "Sla\u{0308}pp fo\u{0308}r att uppdatera", state: .ready)))

    // Back under the threshold disarms; over it again re-arms without moving the first arming.
    expected.phase = .pulling
    expected.lastPullSampleAt = t0 + 76
    expected.lastPullDistance = 30
    pace(34, 30, 16)
    step(f.at(76, .pullMove(distance: 30, offset: 21.6)))
    expected.phase = .armed
    expected.lastPullSampleAt = t0 + 90
    expected.lastPullDistance = 40
    expected.furthestDistance = 40
    pace(30, 40, 14)
    step(f.at(90, .pullMove(distance: 40, offset: 28.8)))

    // Released while armed: a refresh is owed from now on.
    expected.phase = .released
    expected.releaseDistance = 45
    expected.furthestDistance = 45
    expected.armedReleaseAt = t0 + 100
    step(f.at(100, .release(distance: 45)))

    expected.phase = .refreshing
    expected.trigger = .pull
    expected.refreshStartedAt = t0 + 110
    step(f.at(110, .refreshStart(trigger: .pull)))

    expected.indicatorShownAt = t0 + 120
    step(f.at(120, .indicatorShown(IndicatorConfig(kind: .balls, count: 4, staggerMs: 120, cycleMs: 800))))

    step(f.at(125, .label(text: "Padelbollarna studsar medan vi laddar...", state: .refreshing)))
    step(f.at(130, .fetchStart))

    expected.phase = .holding
    expected.loadCompletedAt = t0 + 500
    expected.loadSucceeded = true
    step(f.at(500, .loadComplete(ok: true, error: nil)))

    expected.phase = .done
    expected.indicatorHiddenAt = t0 + 1400
    step(f.at(1400, .indicatorHidden))

    // After done, another hide is unexpected and changes nothing.
    step(
      f.at(1500, .indicatorHidden),
      [
        Violation(
          kind: .unexpectedEvent, at: t0 + 1500, expected: "an event allowed while done",
          actual: "indicator_hidden while done")
      ])
  }

  @Test func tabReselectStartsFromIdleWithoutAPull() {
    var f = EventFactory(app: "phlock")
    let phlock = BuiltInProfiles.phlock
    var state = SessionState()
    #expect(SessionMachine.reduce(&state, f.at(0, .scrollToTop), profile: phlock).isEmpty)
    #expect(state == SessionState(phase: .idle))
    #expect(SessionMachine.reduce(&state, f.at(700, .refreshStart(trigger: .tabReselect)), profile: phlock).isEmpty)
    #expect(state == SessionState(phase: .refreshing, trigger: .tabReselect, refreshStartedAt: t0 + 700))
  }

  /// The contract names no finding for a tab re-select without the scroll first
  /// (docs/choices.md, "Choices where the contract is silent").
  @Test func aTabReselectRefreshNeedsNoScrollToTopFirst() {
    var f = EventFactory(app: "phlock")
    var state = SessionState()
    #expect(
      SessionMachine.reduce(&state, f.at(0, .refreshStart(trigger: .tabReselect)), profile: BuiltInProfiles.phlock)
        .isEmpty)
    #expect(state == SessionState(phase: .refreshing, trigger: .tabReselect, refreshStartedAt: t0))
  }

  @Test func aPullRefreshCannotStartFromIdle() {
    var f = EventFactory()
    var state = SessionState()
    let findings = SessionMachine.reduce(&state, f.at(0, .refreshStart(trigger: .pull)), profile: padel)
    #expect(findings.map(\.kind) == [.unexpectedEvent])
    #expect(state == SessionState())
  }

  @Test func releaseWhilePullingCancels() {
    var f = EventFactory()
    var machine = MachineSteps(profile: padel)
    // 20 × 0.72 = 14.4 < 24: not armed.
    machine.pull(at: t0, sampleAfter: 20, distance: 20, &f)
    machine.expected.phase = .cancelled
    machine.expected.releaseDistance = 28
    machine.expected.furthestDistance = 28
    machine.step(f.at(40, .release(distance: 28)))
    // Whatever the client does next is not applied.
    machine.step(f.at(60, .refreshStart(trigger: .pull)), [.unexpectedEvent])
  }

  @Test func withoutAThresholdTheClientArmsAndDisarms() {
    var f = EventFactory(app: "ffci")
    var machine = MachineSteps(profile: BuiltInProfiles.ffci)
    // No threshold: however far the pull, only the client arms it.
    machine.pull(at: t0, sampleAfter: 16, distance: 200, &f)
    machine.expected.phase = .armed
    machine.expected.machineArm = ArmPoint(at: t0 + 30, distance: 66)
    machine.expected.clientArm = ArmPoint(at: t0 + 30, distance: 66)
    machine.step(f.at(30, .armed(distance: 66)))
    machine.expected.phase = .pulling
    machine.step(f.at(40, .disarmed(distance: 50)))
    // Armed again: the first arming is the one kept, by the machine and for the client.
    machine.expected.phase = .armed
    machine.step(f.at(50, .armed(distance: 70)))
  }

  /// Every event type in every phase: the machine never traps, and an event outside the
  /// contract's table changes nothing but raises `unexpected_event`.
  @Test(arguments: SessionPhase.allCases)
  func unexpectedEventsChangeNothing(phase: SessionPhase) {
    var f = EventFactory()
    let allowed: [SessionPhase: Set<EventType>] = [
      .idle: [.pullStart, .reveal, .scrollToTop, .refreshStart],
      .pulling: [.pullMove, .armed, .disarmed, .release, .cancel, .label, .reveal],
      .armed: [.pullMove, .armed, .disarmed, .release, .cancel, .label, .reveal],
      .released: [.cancel, .label, .reveal, .refreshStart],
      .refreshing: [
        .label, .refreshStart, .indicatorShown, .cacheInvalidated, .fetchStart, .indicatorHidden,
        .loadComplete, .errorShown, .contentCleared,
      ],
      .holding: [
        .label, .refreshStart, .indicatorShown, .cacheInvalidated, .fetchStart, .indicatorHidden,
        .errorShown, .contentCleared,
      ],
      .done: [.loadComplete, .errorShown, .contentCleared],
      .cancelled: [],
      .abandoned: [],
    ]
    let payloads: [EventPayload] = [
      .pullStart, .pullMove(distance: 5, offset: nil), .armed(distance: 5), .disarmed(distance: 5),
      .release(distance: 5), .cancel(reason: nil), .label(text: "x", state: .pulling),
      .refreshStart(trigger: .programmatic), .indicatorShown(nil), .indicatorHidden,
      .reveal(progress: 0, visible: 1), .scrollToTop, .cacheInvalidated(key: "k"), .fetchStart,
      .loadComplete(ok: true, error: nil), .errorShown(message: nil), .contentCleared,
      .screenLeft(reason: "navigation"),
    ]
    #expect(Set(payloads.map(\.type)) == Set(EventType.allCases))
    for payload in payloads {
      let start = SessionState(phase: phase)
      var state = start
      let findings = SessionMachine.reduce(&state, f.at(0, payload), profile: padel)
      let isUnexpected = findings.contains { $0.kind == .unexpectedEvent }
      // v1.2: leaving the screen is allowed in every phase.
      let isAllowed = payload.type == .screenLeft || allowed[phase]!.contains(payload.type)
      #expect(isUnexpected == !isAllowed, "\(payload.type) while \(phase)")
      if isUnexpected { #expect(state == start) }
    }
  }

  // MARK: - v1.2: the screen left

  /// A padel refresh whose screen is left 300 ms in: abandoned, a final phase, and nothing
  /// after it is applied.
  @Test func leavingDuringARefreshAbandonsItStepByStep() {
    var f = EventFactory()
    var machine = MachineSteps(profile: padel)
    machine.pull(at: t0, sampleAfter: 20, distance: 20, &f)
    machine.expected.phase = .armed
    machine.expected.machineArm = ArmPoint(at: t0 + 40, distance: 40)
    machine.expected.lastPullSampleAt = t0 + 40
    machine.expected.lastPullDistance = 40
    machine.expected.furthestDistance = 40
    machine.expected.maxStepGapMs = 20
    machine.pace(from: 20, to: 40, gap: 20)
    machine.step(f.at(40, .pullMove(distance: 40, offset: nil)))
    machine.expected.phase = .released
    machine.expected.releaseDistance = 40
    machine.expected.armedReleaseAt = t0 + 60
    machine.step(f.at(60, .release(distance: 40)))
    machine.expected.phase = .refreshing
    machine.expected.trigger = .pull
    machine.expected.refreshStartedAt = t0 + 70
    machine.step(f.at(70, .refreshStart(trigger: .pull)))
    machine.expected.indicatorShownAt = t0 + 80
    machine.step(f.at(80, .indicatorShown(nil)))
    // The user navigates away 300 ms into the refresh.
    machine.expected.phase = .abandoned
    machine.expected.screenLeftAt = t0 + 370
    machine.step(f.at(370, .screenLeft(reason: "navigation")))
    // Leaving again changes nothing; what the page does after it left is not applied.
    machine.step(f.at(380, .screenLeft(reason: "closed")))
    machine.step(f.at(900, .loadComplete(ok: true, error: nil)), [.unexpectedEvent])
    machine.step(f.at(1300, .indicatorHidden), [.unexpectedEvent])
  }

  struct Leaving: Sendable, CustomTestStringConvertible {
    var from: SessionPhase
    var to: SessionPhase
    var testDescription: String { "\(from.rawValue) → \(to.rawValue)" }
  }

  /// docs/events.md §4 (v1.2): a pull left is cancelled, a refresh left is abandoned, and
  /// anywhere else leaving changes nothing. Never a finding.
  @Test(arguments: [
    Leaving(from: .idle, to: .idle), Leaving(from: .pulling, to: .cancelled), Leaving(from: .armed, to: .cancelled),
    Leaving(from: .released, to: .cancelled), Leaving(from: .refreshing, to: .abandoned),
    Leaving(from: .holding, to: .abandoned), Leaving(from: .done, to: .done),
    Leaving(from: .cancelled, to: .cancelled), Leaving(from: .abandoned, to: .abandoned),
  ])
  func leavingTheScreen(_ c: Leaving) {
    var f = EventFactory()
    var state = SessionState(phase: c.from)
    let findings = SessionMachine.reduce(&state, f.at(5, .screenLeft(reason: nil)), profile: padel)
    #expect(findings.isEmpty)
    let ended = c.from != c.to
    #expect(state == SessionState(phase: c.to, screenLeftAt: ended ? t0 + 5 : nil))
  }

  @Test func aRefreshLeftWithTheFingerDownIsAbandonedAndTheFingerGoesWithIt() {
    var state = SessionState(phase: .refreshing, fingerStillDown: true)
    var f = EventFactory()
    #expect(SessionMachine.reduce(&state, f.at(0, .screenLeft(reason: "background")), profile: padel).isEmpty)
    #expect(state == SessionState(phase: .abandoned, screenLeftAt: t0))
  }
}
