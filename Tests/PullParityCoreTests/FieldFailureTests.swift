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
    machine.pace(from: 20, to: 40, gap: 10)
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
  /// through (more than 2 drawn) is, when nothing tells its pace (the first step of a pull).
  @Test(arguments: [(2.0, nil as Double?), (2.7, nil), (2.8, 300.0), (20.0, 300.0)])
  func aGapCountsOnlyWhenTheFingerMoved(moved: Double, gap: Double?) {
    var f = EventFactory()
    var state = SessionState()
    for event in [f.at(0, .pullStart), f.at(300, .pullMove(distance: moved, offset: nil))] {
      _ = SessionMachine.reduce(&state, event, profile: padel)
    }
    // 0.72 × moved decides (2.7 × 0.72 = 1.944 rests, 2.8 × 0.72 = 2.016 moved).
    #expect(state.maxSampleGapMs == gap, "moved \(moved)")
  }

  struct Pace: Sendable, CustomTestStringConvertible {
    var name: String
    /// Finger distance per 16 ms sample before the gap.
    var step: Double
    var gapMs: Double
    /// Finger travel across the gap.
    var acrossGap: Double
    /// The longest gap that counts.
    var counted: Double
    /// A sample this long after the gap's, this much farther (finger), if any.
    var then: (ms: Double, travel: Double)? = nil
    var testDescription: String { name }
  }

  /// v1.2, QA item 1 by pace: ten 16 ms samples of `step` (the pull's pace), then a gap. Padel
  /// draws 0.72 × the finger; the gap counts when the drawn movement across it is at least half
  /// (`stutterShare`) of the pace times the gap, so a rest then one step never does.
  static let paces: [Pace] = [
    // 5 px / 16 ms; a rest of 400 ms then one ordinary step: 5 ≪ 0.5 × 5/16 × 400 = 62.5.
    Pace(name: "rest then one step", step: 5, gapMs: 400, acrossGap: 5, counted: 16),
    Pace(name: "rest then a double step", step: 5, gapMs: 400, acrossGap: 10, counted: 16),
    // The page froze 300 ms and the finger went on at its pace: 5/16 × 300 = 93.75 in one jump.
    Pace(name: "blocked main thread", step: 5, gapMs: 300, acrossGap: 93.75, counted: 300),
    Pace(name: "blocked, finger slowed to half", step: 5, gapMs: 300, acrossGap: 46.875, counted: 300),
    Pace(name: "blocked, finger slowed below half", step: 5, gapMs: 300, acrossGap: 46, counted: 16),
    // A gap no longer than an ordinary step counts as it did.
    Pace(name: "100 ms step", step: 5, gapMs: 100, acrossGap: 5, counted: 100),
    Pace(name: "slow pull, 120 ms gap in proportion", step: 3, gapMs: 120, acrossGap: 12, counted: 120),
    // Chromium after a frozen main thread: one ordinary step, then the catch-up 4 ms later.
    Pace(
      name: "blocked, the jump a step after the gap", step: 5, gapMs: 300, acrossGap: 5, counted: 300,
      then: (4, 93.75)),
    // A rest, then the pull goes on at its pace: never in proportion to the gap and the step.
    Pace(name: "rest, then the pull's own pace", step: 5, gapMs: 400, acrossGap: 5, counted: 16, then: (16, 5)),
  ]

  @Test(arguments: paces)
  func aLongGapIsAStutterOnlyInProportionToThePullsPace(_ c: Pace) {
    var f = EventFactory()
    var state = SessionState()
    var events = [f.at(0, .pullStart)]
    for index in 1...10 {
      events.append(f.at(Double(index) * 16, .pullMove(distance: Double(index) * c.step, offset: nil)))
    }
    events.append(f.at(160 + c.gapMs, .pullMove(distance: 10 * c.step + c.acrossGap, offset: nil)))
    if let then = c.then {
      let distance = 10 * c.step + c.acrossGap + then.travel
      events.append(f.at(160 + c.gapMs + then.ms, .pullMove(distance: distance, offset: nil)))
    }
    for event in events { _ = SessionMachine.reduce(&state, event, profile: padel) }
    #expect(state.maxSampleGapMs == c.counted)
    // Samples within an ordinary step after a long gap are judged with it, not with the pace.
    #expect(state.paceMs == 160 + (c.gapMs <= SessionMetrics.ordinaryStepMs ? c.gapMs : 0))
  }

  /// Chromium on a page whose main thread blocks at the pull's second touch: one quick step
  /// (3 px in 5 ms) before the freeze, an ordinary step after it, the catch-up 4 ms later, then
  /// the finger's own pace (3 px / 16 ms). Against the one quick step the catch-up is out of
  /// proportion; against the whole pull it is a stutter. A rest in its place never is.
  @Test(arguments: [("frozen page", 75.0, 400.0 as Double?), ("rest", 0.0, nil)])
  func aLongGapIsJudgedAgainstTheWholePullsPace(name: String, catchUp: Double, counted: Double?) {
    var f = EventFactory()
    var state = SessionState()
    var events = [f.at(0, .pullStart), f.at(5, .pullMove(distance: 3, offset: nil))]
    events += [
      f.at(405, .pullMove(distance: 6, offset: nil)), f.at(409, .pullMove(distance: 6 + catchUp, offset: nil)),
    ]
    for event in events { _ = SessionMachine.reduce(&state, event, profile: padel) }
    // The pace so far is the one quick step (its 5 ms gap counts): 0.5 × 3 / 5 × 404 > the catch-up.
    #expect(state.maxSampleGapMs == 5, "\(name)")
    for step in 1...25 {
      let sample = f.at(409 + 16 * Double(step), .pullMove(distance: 6 + catchUp + 3 * Double(step), offset: nil))
      _ = SessionMachine.reduce(&state, sample, profile: padel)
    }
    #expect(state.maxSampleGapMs == (counted ?? 16), "\(name)")
    #expect(state.longGaps.map(\.ms) == [400] && state.openGap == nil)
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
    // v1.2: what waits is said, with the time the data must reach for each rule.
    var pending: [PendingJudgement] = []
    if c.stuck == nil, let refreshAt = c.refreshAt {
      pending.append(PendingJudgement(kind: .stuckRefresh, decidedAt: t0 + refreshAt + 30_000))
    }
    if c.dropped == nil { pending.append(PendingJudgement(kind: .droppedRefresh, decidedAt: t0 + 1_100)) }
    #expect(session.pending == pending)
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

  struct Repeat: Sendable, CustomTestStringConvertible {
    var name: String
    /// The session recorded the user's pull (`pull_start`).
    var pulled: Bool
    /// The previous refresh on the install and screen, in ms from t0; this one starts at 1000.
    var previousStart: Double?
    var previousEnd: Double?
    var repeated: Bool
    var testDescription: String { name }
  }

  /// v1.2: a repeated refresh is one no gesture of its own explains, on top of the previous one
  /// (still running, or within repeat_within_ms = 1000 of its start). A user who pulls again
  /// is never one.
  static let repeats: [Repeat] = [
    Repeat(name: "no previous refresh", pulled: false, repeated: false),
    Repeat(
      name: "a pull 200 ms after a refresh ended", pulled: true, previousStart: -500, previousEnd: 800, repeated: false),
    Repeat(name: "a pull while the previous one runs", pulled: true, previousStart: 500, repeated: false),
    Repeat(name: "onRefresh again while it runs", pulled: false, previousStart: 500, repeated: true),
    Repeat(
      name: "onRefresh again before it ended", pulled: false, previousStart: -500, previousEnd: 1200, repeated: true),
    Repeat(name: "onRefresh 999 ms after its start", pulled: false, previousStart: 1, previousEnd: 900, repeated: true),
    Repeat(
      name: "onRefresh 1000 ms after its start", pulled: false, previousStart: 0, previousEnd: 900, repeated: false),
    Repeat(name: "onRefresh long after", pulled: false, previousStart: -5000, previousEnd: -3000, repeated: false),
  ]

  @Test(arguments: repeats)
  func aRepeatedRefreshIsOneNoGestureExplains(_ c: Repeat) {
    var f = EventFactory()
    var events =
      c.pulled
      ? [
        f.at(800, .pullStart), f.at(850, .pullMove(distance: 40, offset: nil)), f.at(900, .release(distance: 40)),
        f.at(1000, .refreshStart(trigger: .pull)),
      ]
      : [f.at(1000, .refreshStart(trigger: .pull, gestureObserved: false))]
    events += [
      f.at(1010, .indicatorShown(nil)), f.at(1500, .loadComplete(ok: true, error: nil)), f.at(2300, .indicatorHidden),
    ]
    for index in events.indices { events[index].installID = "install-1" }
    let context = SessionContext(
      previousRefreshStartedAt: c.previousStart.map { t0 + $0 }, previousRefreshEndedAt: c.previousEnd.map { t0 + $0 })
    let session = derive(events, context: context)
    #expect(session.metrics.repeatedRefresh == c.repeated)
    #expect(session.violations.filter { $0.kind == .repeatedRefresh }.count == (c.repeated ? 1 : 0))
  }

  @Test func withoutAnInstallIDRepeatsAreNotJudged() {
    let session = derive(
      refresh(refreshAt: 150, hiddenAt: 1500), context: SessionContext(previousRefreshStartedAt: t0 + 100))
    #expect(session.metrics.repeatedRefresh == nil)
  }

  // MARK: - v1.2: the screen left

  struct Left: Sendable, CustomTestStringConvertible {
    var name: String
    var refreshAt: Double?
    /// When the screen was left, in ms from t0 (the armed release is at 100).
    var leftAt: Double
    var outcome: SessionOutcome
    var stuck: Bool?
    var dropped: Bool?
    var testDescription: String { name }
  }

  /// v1.2: a session ended by `screen_left` is stuck only if the indicator was still up
  /// stuck_after_ms (30 s) after refresh_start when the screen was left, and dropped only if
  /// refresh_within_ms (1 s) had passed since the armed release. Never pending: leaving decides.
  static let leaves: [Left] = [
    Left(
      name: "left 0.3 s into the refresh", refreshAt: 150, leftAt: 450, outcome: .abandoned, stuck: false,
      dropped: false),
    Left(
      name: "left at the stuck time", refreshAt: 150, leftAt: 30_150, outcome: .abandoned, stuck: false, dropped: false),
    Left(
      name: "left after the stuck time", refreshAt: 150, leftAt: 30_151, outcome: .abandoned, stuck: true,
      dropped: false),
    Left(name: "left 0.3 s after the armed release", leftAt: 400, outcome: .cancelled, stuck: nil, dropped: false),
    Left(name: "left at the refresh time", leftAt: 1_100, outcome: .cancelled, stuck: nil, dropped: false),
    Left(name: "left after the refresh time", leftAt: 1_101, outcome: .cancelled, stuck: nil, dropped: true),
  ]

  @Test(arguments: leaves)
  func aScreenLeftIsJudgedAtTheTimeItWasLeft(_ c: Left) {
    var f = EventFactory()
    var events = refresh(refreshAt: c.refreshAt, hiddenAt: nil)
    events.append(f.at(c.leftAt, .screenLeft(reason: "navigation")))
    let session = derive(events)
    #expect(session.metrics.outcome == c.outcome)
    #expect(session.metrics.stuckRefresh == c.stuck)
    #expect(session.metrics.droppedRefresh == c.dropped)
    #expect(session.judgeAgainAt == nil)
    #expect(
      session.violations.map(\.kind).filter { $0 != .unexpectedEvent } == (c.stuck == true ? [.stuckRefresh] : [])
        + (c.dropped == true ? [.droppedRefresh] : []))
    // An abandoned refresh ends when the screen was left: the next refresh is judged against it.
    #expect(session.refreshEndedAt == (c.outcome == .abandoned ? t0 + c.leftAt : nil))
    #expect(session.metrics.flash == nil && session.metrics.holdCompliant == nil)
    // Abandoned during refresh: a figure over the sessions with a refresh.
    #expect(session.metrics.abandonedDuringRefresh == (c.refreshAt == nil ? nil : true))
    #expect(session.pending.isEmpty)
  }

  @Test func aCompletedRefreshWasNotAbandoned() {
    let session = derive(refresh(refreshAt: 150, hiddenAt: 1500))
    #expect(session.metrics.outcome == .completed && session.metrics.abandonedDuringRefresh == false)
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
