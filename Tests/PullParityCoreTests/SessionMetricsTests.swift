import PullParityCore
import PullParityTestSupport
import Testing

/// Every metric and violation kind on hand-written sessions. The expected numbers were worked
/// out by hand from the contract (§5, §9); the comments show the arithmetic.
@Suite struct SessionMetricsTests {
  static let catalog = ProfileCatalog()

  /// A padel pull refresh: armed at 34 (34 × 0.72 = 24.48 ≥ 24), refresh at 110, shown at 120.
  static func padelRefresh(
    loadAt: Double?, hiddenAt: Double?, clientArm: Double? = 34, platform: String = "ios",
    extra: [(Double, EventPayload)] = []
  ) -> DerivedSession {
    var f = EventFactory(platform: platform)
    var events = [
      f.at(0, .pullStart),
      f.at(20, .pullMove(distance: 20, offset: 14.4)),
      f.at(40, .pullMove(distance: 34, offset: 24.48)),
    ]
    if let clientArm { events.append(f.at(41, .armed(distance: clientArm))) }
    events += [
      f.at(60, .pullMove(distance: 50, offset: 36)),
      f.at(80, .release(distance: 50)),
      f.at(110, .refreshStart(trigger: .pull)),
      f.at(120, .indicatorShown(IndicatorConfig(kind: .balls, count: 4, staggerMs: 120, cycleMs: 800))),
    ]
    if let loadAt { events.append(f.at(loadAt, .loadComplete(ok: true, error: nil))) }
    if let hiddenAt { events.append(f.at(hiddenAt, .indicatorHidden)) }
    for (at, payload) in extra { events.append(f.at(at, payload)) }
    return SessionDeriver.derive(EventFactory.recorded(events), profiles: catalog)
  }

  @Test func compliantRefresh() {
    // visible 1400 − 120 = 1280 ≥ 1200; deadline max(120 + 1200, 600) + 250 = 1570 ≥ 1400.
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: 1400)
    #expect(
      s.metrics
        == SessionMetrics(
          outcome: .completed, trigger: .pull, timeToArmMs: 40, armDistance: 34, clientArmDistance: 34,
          releaseDistance: 50, loadMs: 490, visibleMs: 1280, flash: false, prematureHide: false,
          lateHide: false, holdCompliant: true, labelViolations: 0, armMismatch: false, loadSucceeded: true,
          maxSampleGapMs: 20, maxOffsetError: abs(14.4 - 20 * 0.72), gestureObserved: true, stuckRefresh: false,
          droppedRefresh: false, abandonedDuringRefresh: false))
    #expect(s.violations.isEmpty)
    #expect(s.profileName == "padel" && s.profileVersion == 2)
  }

  @Test func flashWhenHiddenBeforeTheMinimumHold() {
    // visible 900 − 120 = 780 < 1200.
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: 900)
    #expect(s.metrics.visibleMs == 780)
    #expect(s.metrics.flash == true)
    #expect(s.metrics.holdCompliant == false)
    #expect(
      s.violations
        == [Violation(kind: .flash, at: 1_795_000_000_900, expected: "visible ≥ 1200 ms", actual: "visible 780 ms")])
  }

  @Test func visibleExactlyTheMinimumIsNotAFlash() {
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: 1320)
    #expect(s.metrics.visibleMs == 1200)
    #expect(s.metrics.flash == false)
  }

  @Test func prematureHideEvenWhenTheLoadEndsAfterwards() {
    // Hidden at 1400 with no load yet; the load at 1600 is allowed in done.
    let s = Self.padelRefresh(
      loadAt: nil, hiddenAt: 1400, extra: [(1600, .loadComplete(ok: true, error: nil))])
    #expect(s.metrics.outcome == .completed)
    #expect(s.metrics.prematureHide == true)
    #expect(s.metrics.loadMs == 1490)
    // deadline max(1320, 1600) + 250 = 1850 > 1400: not late.
    #expect(s.metrics.lateHide == false)
    #expect(s.metrics.holdCompliant == false)
    #expect(s.violations.map(\.kind) == [.prematureHide])
  }

  @Test func lateHideIsStrictlyAfterTheDeadline() {
    // deadline max(120 + 1200, 3000) + 250 = 3250.
    let onTime = Self.padelRefresh(loadAt: 3000, hiddenAt: 3250)
    #expect(onTime.metrics.lateHide == false)
    let late = Self.padelRefresh(loadAt: 3000, hiddenAt: 3251)
    #expect(late.metrics.lateHide == true)
    #expect(late.metrics.holdCompliant == false)
    #expect(
      late.violations
        == [
          Violation(
            kind: .lateHide, at: 1_795_000_003_251, expected: "hidden ≤ 3130 ms after shown",
            actual: "hidden 3131 ms after shown")
        ])
  }

  @Test func incompleteSessionsHaveNoHoldFlags() {
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: nil)
    #expect(s.metrics.outcome == .incomplete)
    #expect(s.metrics.visibleMs == nil)
    #expect(s.metrics.flash == nil && s.metrics.prematureHide == nil && s.metrics.lateHide == nil)
    #expect(s.metrics.holdCompliant == nil)
    #expect(s.metrics.loadMs == 490)
  }

  @Test func clientArmingOnRawDistanceIsAnArmMismatch() {
    // The client armed at 24 raw; the machine at 34: |24 − 34| = 10 > 2.
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: 1400, clientArm: 24)
    #expect(s.metrics.clientArmDistance == 24)
    #expect(s.metrics.armMismatch == true)
    #expect(
      s.violations
        == [Violation(kind: .armMismatch, at: 1_795_000_000_041, expected: "armed at 34", actual: "armed at 24")])
  }

  @Test func clientArmingWithinTwoIsNotAMismatch() {
    let s = Self.padelRefresh(loadAt: 600, hiddenAt: 1400, clientArm: 36)
    #expect(s.metrics.armMismatch == false)
    #expect(s.violations.isEmpty)
  }

  @Test func clientArmingWhereTheMachineNeverArmsIsAMismatch() {
    var f = EventFactory()
    let events = [
      f.at(0, .pullStart), f.at(20, .pullMove(distance: 25, offset: nil)), f.at(25, .armed(distance: 25)),
      f.at(40, .release(distance: 30)),
    ]
    let s = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(s.metrics.outcome == .cancelled)
    #expect(s.metrics.armDistance == nil && s.metrics.timeToArmMs == nil)
    #expect(s.metrics.releaseDistance == 30)
    #expect(s.metrics.armMismatch == true)
    #expect(s.violations.map(\.kind) == [.armMismatch])
    #expect(s.violations.first?.expected == "not armed (threshold 24 never reached)")
  }

  @Test func labelCopyIsComparedByCanonicalEquivalence() {
    var f = EventFactory()
    let events = [
      f.at(0, .pullStart),
      f.at(1, .label(text: "Dra för att ladda senaste padelnytt...", state: .pulling)),
      f.at(2, .label(text: "Sla\u{0308}pp för att uppdatera", state: .ready)),
      f.at(3, .label(text: "Släpp för att uppdatera!", state: .ready)),
      f.at(4, .label(text: "Dra för att ladda senaste padelnytt...", state: .refreshing)),
    ]
    let labelled = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(labelled.metrics.labelViolations == 2)
    #expect(
      labelled.violations
        == [
          Violation(
            kind: .labelText, at: 1_795_000_000_003, expected: "Släpp för att uppdatera",
            actual: "Släpp för att uppdatera!"),
          Violation(
            kind: .labelText, at: 1_795_000_000_004, expected: "Padelbollarna studsar medan vi laddar...",
            actual: "Dra för att ladda senaste padelnytt..."),
        ])
  }

  @Test func doubleRefreshAndIndicatorConfig() {
    var f = EventFactory()
    let events = [
      f.at(0, .pullStart), f.at(10, .pullMove(distance: 40, offset: nil)), f.at(20, .release(distance: 40)),
      f.at(30, .refreshStart(trigger: .pull)),
      f.at(40, .indicatorShown(IndicatorConfig(kind: .balls, count: 3, staggerMs: 120, cycleMs: 900))),
      f.at(50, .refreshStart(trigger: .pull)),
      f.at(600, .loadComplete(ok: true, error: nil)),
      f.at(1300, .indicatorHidden),
    ]
    let derived = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(derived.violations.map(\.kind) == [.indicatorConfig, .doubleRefresh])
    #expect(derived.violations[0].actual == "count 3, cycle 900 ms")
    #expect(derived.violations[0].expected == "count 4, stagger 120 ms, cycle 800 ms")
    // Only the first refresh_start counts: the load is measured from it (600 − 30).
    #expect(derived.metrics.loadMs == 570)
  }

  @Test func ffciCacheOrderErrorsAndContent() {
    var f = EventFactory(app: "ffci", screen: "TabPageView")
    let events = [
      f.at(0, .pullStart), f.at(30, .armed(distance: 66)), f.at(60, .release(distance: 70)),
      f.at(70, .refreshStart(trigger: .pull)), f.at(75, .indicatorShown(IndicatorConfig(kind: .native))),
      f.at(80, .fetchStart), f.at(85, .cacheInvalidated(key: "page:1")), f.at(90, .fetchStart),
      f.at(400, .loadComplete(ok: false, error: "timeout")), f.at(410, .contentCleared),
      f.at(500, .indicatorHidden),
    ]
    let s = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    // One fetch before the invalidation; the second fetch came after it.
    #expect(s.violations.map(\.kind) == [.cacheOrder, .contentClearedOnError, .errorNotShown])
    #expect(s.metrics.loadSucceeded == false)
    #expect(s.metrics.timeToArmMs == 30 && s.metrics.armDistance == 66)
    // No threshold of its own: nothing to mismatch; no minimum hold: no flash.
    #expect(s.metrics.armMismatch == nil)
    #expect(s.metrics.flash == false)
    #expect(s.metrics.labelViolations == nil)
  }

  @Test func ffciErrorShownAfterTheFailureSatisfiesTheRule() {
    var f = EventFactory(app: "ffci", screen: "HomeView")
    let events = [
      f.at(0, .pullStart), f.at(30, .armed(distance: 66)), f.at(60, .release(distance: 70)),
      f.at(70, .refreshStart(trigger: .pull)), f.at(80, .fetchStart),
      f.at(400, .loadComplete(ok: false, error: "offline")), f.at(420, .indicatorHidden),
      f.at(430, .errorShown(message: "Kunde inte uppdatera")),
    ]
    let s = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(s.violations.isEmpty, "HomeView needs no cache invalidation; the error was shown")
  }

  @Test(arguments: [
    // progress, visible, violation? — bar i may show from 0.2 · i (decimal: 0.6 allows 4 bars).
    (0.0, 1, false), (0.19, 2, true), (0.2, 2, false), (0.45, 4, true), (0.59, 4, true), (0.6, 4, false),
    (0.8, 5, false), (1.0, 5, false), (1.0, 6, true),
  ])
  func phlockRevealOrder(progress: Double, visible: Int, violates: Bool) {
    var f = EventFactory(app: "phlock")
    let events = [f.at(0, .pullStart), f.at(10, .reveal(progress: progress, visible: visible))]
    let s = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(s.violations.map(\.kind) == (violates ? [.revealOrder] : []))
  }

  @Test func unknownAppsAreDerivedWithTheUnconstrainedProfile() {
    var f = EventFactory(app: "newapp")
    let events = [f.at(0, .pullStart), f.at(10, .label(text: "anything", state: .pulling))]
    let s = SessionDeriver.derive(EventFactory.recorded(events), profiles: Self.catalog)
    #expect(s.profileName == "newapp" && s.profileVersion == 0)
    #expect(s.metrics.labelViolations == nil)
    #expect(s.violations.isEmpty)
  }

  /// Log order (docs/events.md §9): each key decides only when every key before it ties.
  @Test(arguments: [
    ("ts", placed(0, seq: 9, "b.jsonl", line: 9), placed(1, seq: 0, "a.jsonl", line: 1)),
    ("seq, at one ts", placed(0, seq: 1, "b.jsonl", line: 9), placed(0, seq: 2, "a.jsonl", line: 1)),
    ("absent seq sorts as 0", placed(0, seq: nil, "b.jsonl", line: 9), placed(0, seq: 1, "a.jsonl", line: 1)),
    ("file name, at one ts and seq", placed(0, seq: 1, "a.jsonl", line: 9), placed(0, seq: 1, "b.jsonl", line: 1)),
    ("line, in one file", placed(0, seq: nil, "a.jsonl", line: 1), placed(0, seq: 0, "a.jsonl", line: 2)),
  ])
  func logOrderBreaksEachTieWithTheNextKey(key: String, earlier: RecordedEvent, later: RecordedEvent) {
    #expect(RecordedEvent.inLogOrder(earlier, later), "\(key)")
    #expect(!RecordedEvent.inLogOrder(later, earlier), "\(key)")
  }

  static func placed(_ offset: Double, seq: Int?, _ source: String, line: Int) -> RecordedEvent {
    var f = EventFactory()
    return RecordedEvent(event: f.at(offset, .pullStart, seq: seq), source: source, line: line)
  }

  @Test func eventsAreDerivedInLogOrderWhateverOrderTheyWereWritten() {
    var f = EventFactory()
    let start = f.at(0, .pullStart)
    let move = f.at(5, .pullMove(distance: 40, offset: nil), seq: 2)
    let release = f.at(5, .release(distance: 40), seq: 3)
    // Written out of order, in two files: the order comes from ts and seq alone.
    let recorded = [
      RecordedEvent(event: release, source: "a.jsonl", line: 1),
      RecordedEvent(event: move, source: "b.jsonl", line: 9),
      RecordedEvent(event: start, source: "b.jsonl", line: 10),
    ]
    let s = SessionDeriver.derive(recorded, profiles: Self.catalog)
    #expect(s.finalPhase == .released)
    #expect(s.metrics.releaseDistance == 40)
    #expect(s.startedAt == 1_795_000_000_000 && s.endedAt == 1_795_000_000_005)
  }
}
