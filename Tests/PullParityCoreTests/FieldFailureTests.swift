import PullParityCore
import PullParityTestSupport
import Testing

/// The v1.1 rules for what users file (docs/events.md §5): the machine's part step by step with
/// the whole state after each event, and the judgements that wait for the data or look at the
/// previous refresh, on hand-written sessions with the context the store would hand in.
@Suite struct FieldFailureTests {
  let padel = BuiltInProfiles.padel
  let t0 = 1_795_000_000_000.0

  /// A padel pull that arms at +30 (20 × 0.72 = 14.4 < 24, then 40 × 0.72 = 28.8 ≥ 24), and the
  /// state once a pull refresh starts at +40 with the finger still down; the caller steps it.
  func armAndRefreshWithTheFingerDown(_ machine: inout MachineSteps, _ f: inout EventFactory) {
    machine.pull(at: t0, sampleAfter: 20, distance: 20, &f)
    machine.expected.phase = .armed
    machine.expected.machineArm = ArmPoint(at: t0 + 30, distance: 40)
    machine.expected.lastPullSampleAt = t0 + 30
    machine.expected.lastPullDistance = 40
    machine.expected.furthestDistance = 40
    machine.step(f.at(30, .pullMove(distance: 40, offset: nil)))
    machine.expected.phase = .refreshing
    machine.expected.trigger = .pull
    machine.expected.refreshStartedAt = t0 + 40
    machine.expected.fingerStillDown = true
  }

  @Test func aRefreshBeforeTheReleaseIsFoundAndTheRefreshStillRuns() {
    var f = EventFactory()
    var machine = MachineSteps(profile: padel)
    armAndRefreshWithTheFingerDown(&machine, &f)
    // Fired while the finger is down: early, but the refresh is under way.
    machine.step(f.at(40, .refreshStart(trigger: .pull)), [.refreshBeforeRelease])
    // The rest of the drag and its release are the gesture finishing, not findings.
    machine.expected.furthestDistance = 55
    machine.step(f.at(50, .pullMove(distance: 55, offset: nil)))
    machine.expected.releaseDistance = 55
    machine.expected.fingerStillDown = false
    machine.step(f.at(60, .release(distance: 55)))
    // A second release is not: the finger is up.
    machine.step(f.at(70, .release(distance: 55)), [.unexpectedEvent])
  }

  @Test func aProfileThatRefreshesOnTheThresholdExpectsIt() {
    var profile = padel
    profile.refreshOnThreshold = true
    var f = EventFactory()
    var machine = MachineSteps(profile: profile)
    armAndRefreshWithTheFingerDown(&machine, &f)
    machine.step(f.at(40, .refreshStart(trigger: .pull)))
  }

  @Test func beforeTheThresholdARefreshIsEarlyEvenWhenThresholdRefreshesAreExpected() {
    var profile = padel
    profile.refreshOnThreshold = true
    var f = EventFactory()
    var machine = MachineSteps(profile: profile)
    machine.pull(at: t0, sampleAfter: 20, distance: 10, &f)
    machine.expected.phase = .refreshing
    machine.expected.trigger = .pull
    machine.expected.refreshStartedAt = t0 + 30
    machine.expected.fingerStillDown = true
    machine.step(f.at(30, .refreshStart(trigger: .pull)), [.refreshBeforeRelease])
  }

  @Test func aRefreshOnlyTheAppsCallbackSawStartsFromIdle() {
    var f = EventFactory()
    var machine = MachineSteps(profile: padel)
    machine.expected.phase = .refreshing
    machine.expected.trigger = .pull
    machine.expected.refreshStartedAt = t0
    machine.step(f.at(0, .refreshStart(trigger: .pull, gestureObserved: false)))
    let events = [
      f.at(0, .refreshStart(trigger: .pull, gestureObserved: false)), f.at(10, .indicatorShown(nil)),
      f.at(500, .loadComplete(ok: true, error: nil)), f.at(1300, .indicatorHidden),
    ]
    let session = SessionDeriver.derive(EventFactory.recorded(events), profiles: ProfileCatalog())
    #expect(session.metrics.outcome == .completed && session.metrics.trigger == .pull)
    #expect(session.metrics.gestureObserved == false)
    #expect(session.violations.isEmpty)
  }

  /// A resting finger sends nothing; the gap it leaves is no stall. A gap the finger moved
  /// through (more than 2 drawn) is.
  @Test(arguments: [(2.0, nil as Double?), (2.7, nil), (2.8, 300.0), (20.0, 300.0)])
  func aGapCountsOnlyWhenTheFingerMoved(moved: Double, gap: Double?) {
    var f = EventFactory()
    var state = SessionState()
    for event in [
      f.at(0, .pullStart), f.at(10, .pullMove(distance: 1, offset: nil)),
      f.at(310, .pullMove(distance: 1 + moved, offset: nil)),
    ] {
      _ = SessionMachine.reduce(&state, event, profile: padel)
    }
    // 0 → 1 finger is 0.72 drawn: that first gap never counts; 0.72 × moved decides the second
    // (2.7 × 0.72 = 1.944 rests, 2.8 × 0.72 = 2.016 moved).
    #expect(state.maxSampleGapMs == gap, "moved \(moved)")
  }

  // MARK: - Judged at the end, with the store's context

  /// Derives `events` as the store would with `context`.
  func derive(_ events: [Event], context: SessionContext = SessionContext()) -> DerivedSession {
    SessionDeriver.derive(EventFactory.recorded(events), profiles: ProfileCatalog(), context: context)
  }

  /// A padel refresh from an armed release at 100; `refreshAt` nil for none, `hiddenAt` nil to
  /// leave the indicator up.
  func refresh(refreshAt: Double?, hiddenAt: Double?, installID: String? = nil) -> [Event] {
    var f = EventFactory()
    var events = [
      f.at(0, .pullStart), f.at(50, .pullMove(distance: 40, offset: nil)), f.at(100, .release(distance: 40)),
    ]
    if let refreshAt {
      events += [f.at(refreshAt, .refreshStart(trigger: .pull)), f.at(refreshAt + 10, .indicatorShown(nil))]
    }
    if let hiddenAt {
      events += [f.at(hiddenAt - 5, .loadComplete(ok: true, error: nil)), f.at(hiddenAt, .indicatorHidden)]
    }
    for index in events.indices { events[index].installID = installID }
    return events
  }

  struct Waiting: Sendable, CustomTestStringConvertible {
    var name: String
    var refreshAt: Double?
    var hiddenAt: Double?
    /// Offset from t0 of the newest event stored for the app and platform.
    var horizon: Double?
    var stuck: Bool?
    var dropped: Bool?
    var judgeAgainAt: Double?
    var testDescription: String { name }
  }

  static let waiting: [Waiting] = [
    Waiting(name: "hidden in time", refreshAt: 150, hiddenAt: 1500, stuck: false, dropped: false),
    Waiting(name: "hidden after 30 s", refreshAt: 150, hiddenAt: 30_200, stuck: true, dropped: false),
    // The log ends mid-refresh and nothing newer is stored: not stuck yet.
    Waiting(name: "at the edge of the data", refreshAt: 150, stuck: nil, dropped: false, judgeAgainAt: 30_150),
    Waiting(name: "one ms short", refreshAt: 150, horizon: 30_149, stuck: nil, dropped: false, judgeAgainAt: 30_150),
    Waiting(name: "the data moved past", refreshAt: 150, horizon: 30_150, stuck: true, dropped: false),
    // Released armed, no refresh: dropped once the data is a second past the release.
    Waiting(name: "no refresh yet", horizon: 1_099, stuck: nil, dropped: nil, judgeAgainAt: 1_100),
    Waiting(name: "no refresh ever", horizon: 1_100, stuck: nil, dropped: true),
    Waiting(name: "a refresh too late", refreshAt: 1_200, hiddenAt: 2_600, stuck: false, dropped: true),
  ]

  @Test(arguments: waiting)
  func stuckAndDroppedRefreshesWaitForTheData(_ c: Waiting) {
    let context = SessionContext(horizon: c.horizon.map { t0 + $0 })
    let session = derive(refresh(refreshAt: c.refreshAt, hiddenAt: c.hiddenAt), context: context)
    #expect(session.metrics.stuckRefresh == c.stuck)
    #expect(session.metrics.droppedRefresh == c.dropped)
    #expect(session.judgeAgainAt == c.judgeAgainAt.map { t0 + $0 })
    let kinds = session.violations.map(\.kind)
    #expect(kinds.contains(.stuckRefresh) == (c.stuck == true))
    #expect(kinds.contains(.droppedRefresh) == (c.dropped == true))
  }

  @Test func aCancelAfterTheArmedReleaseIsADroppedRefresh() {
    var f = EventFactory()
    let session = derive([
      f.at(0, .pullStart), f.at(50, .pullMove(distance: 40, offset: nil)), f.at(100, .release(distance: 40)),
      f.at(150, .cancel(reason: "view left")),
    ])
    #expect(session.metrics.outcome == .cancelled && session.metrics.droppedRefresh == true)
    #expect(session.violations.map(\.actual) == ["cancelled after the armed release"])
  }

  /// The previous refresh's end, in ms from t0; this one starts at 150 and repeat_within_ms is
  /// 1000. One that ended after this one started overlaps it: a repeat too.
  @Test(arguments: [(nil as Double?, false as Bool?), (-849, true), (-850, false), (200, true)])
  func aRefreshRightAfterThePreviousOneOnTheSameInstallRepeats(previousEnd: Double?, repeated: Bool?) {
    let events = refresh(refreshAt: 150, hiddenAt: 1500, installID: "install-1")
    let context = SessionContext(previousRefreshEndedAt: previousEnd.map { t0 + $0 })
    let session = derive(events, context: context)
    #expect(session.metrics.repeatedRefresh == repeated)
    #expect(session.violations.contains { $0.kind == .repeatedRefresh } == (repeated == true))
  }

  @Test func withoutAnInstallIDRepeatsAreNotJudged() {
    let session = derive(refresh(refreshAt: 150, hiddenAt: 1500), context: SessionContext(previousRefreshEndedAt: t0))
    #expect(session.metrics.repeatedRefresh == nil)
  }

  /// 24 / 0.72 = 33.3 arms; 80 % of the threshold drawn is 19.2, at 26.7 finger.
  @Test(arguments: [(26.7, true), (26.6, false), (33.0, true)])
  func aCancelThatReachedMostOfTheThresholdIsANearMiss(furthest: Double, nearMiss: Bool) {
    var f = EventFactory()
    let session = derive([
      f.at(0, .pullStart), f.at(50, .pullMove(distance: furthest, offset: nil)),
      f.at(100, .release(distance: furthest - 5)),
    ])
    #expect(session.metrics.outcome == .cancelled)
    #expect(session.metrics.nearMiss == nearMiss)
  }
}

/// A resistance curve: drawn offsets between points, the finger travel for an offset, arming.
@Suite struct ResistanceTests {
  let curve = Resistance.curve([.init(finger: 50, drawn: 20), .init(finger: 150, drawn: 80)])

  @Test(arguments: [(0.0, 0.0), (25, 10), (50, 20), (100, 50), (150, 80), (400, 80)])
  func drawnOffsetsInterpolate(finger: Double, drawn: Double) {
    #expect(abs(curve.drawn(atFinger: finger) - drawn) < 1e-9)
  }

  @Test func theFingerForAnOffsetInvertsTheCurve() {
    #expect(curve.finger(forDrawn: 50).map { abs($0 - 100) < 1e-9 } == true)
    #expect(curve.finger(forDrawn: 81) == nil)
    #expect(Resistance.factor(0.72).finger(forDrawn: 24).map { abs($0 - 33.333) < 1e-3 } == true)
  }

  @Test func aProfileArmsOnTheCurve() {
    let profile = Profile(name: "lib", armThreshold: 50, resistance: curve, minHoldMs: 0, hideSlackMs: 250)
    #expect(profile.arms(atDistance: 100) && !profile.arms(atDistance: 99))
  }

  @Test(arguments: [
    (Resistance.factor(0), false), (.factor(.infinity), false), (.factor(0.5), true),
    (.curve([]), false), (.curve([.init(finger: 10, drawn: 5), .init(finger: 5, drawn: 8)]), false),
    (.curve([.init(finger: 10, drawn: 5), .init(finger: 20, drawn: 4)]), false),
  ])
  func unusableResistancesAreNamed(resistance: Resistance, usable: Bool) {
    #expect((resistance.problem == nil) == usable)
  }
}
