import Foundation
import PullParityCore
import PullParityIngest
import PullParityRecorder
import Testing

@Suite struct PullParityRecorderTests {
  /// The lines a recorder wrote, decoded by the pipeline's decoder.
  static func decode(_ lines: [String]) -> [Event] {
    var decoder = LineDecoder()
    return lines.compactMap { line in
      guard case .event(let event) = decoder.decode(line) else {
        Issue.record("not an event: \(line)")
        return nil
      }
      return event
    }
  }

  static func recorder(
    app: String, screen: String? = nil, lines: Collected<String>, clock: ManualClock,
    findings: Collected<LiveFinding>? = nil
  ) -> PullParityRecorder {
    PullParityRecorder(
      app: app, appVersion: "1.0", screen: screen, sink: lines.sink, clock: clock, ids: UUIDv7Generator.seeded(),
      onFinding: findings.map { $0.append })
  }

  @Test func eventsAreStampedWithTheAppAndTheClockAndCountedPerSession() throws {
    let lines = Collected<String>()
    let clock = ManualClock()
    let recorder = PullParityRecorder(
      app: "padel", appVersion: "3.9.0", profile: "padel", screen: "matches", osVersion: "18.1",
      device: "iPhone16,1", sink: lines.sink, clock: clock, ids: UUIDv7Generator.seeded())
    recorder.pullStart()
    clock.advance(by: .milliseconds(16.25))
    recorder.empty = true
    recorder.pullMove(distance: 10, offset: 7.2)
    recorder.screen = "other"
    recorder.cancel(reason: "scroll")

    let events = Self.decode(lines.all)
    let session = try #require(recorder.currentSessionID)
    #expect(events.map(\.seq) == [0, 1, 2])
    #expect(events.map(\.timestamp) == [clock.origin, clock.origin + 16.25, clock.origin + 16.25])
    #expect(events.map(\.screen) == ["matches", "matches", "other"])
    #expect(events.map(\.empty) == [nil, true, true])
    #expect(events.map(\.payload) == [.pullStart, .pullMove(distance: 10, offset: 7.2), .cancel(reason: "scroll")])
    for event in events {
      #expect(event.sessionID == session)
      #expect(event.platform == "ios")
      #expect((event.app, event.profile, event.appVersion) == ("padel", "padel", "3.9.0"))
      #expect((event.osVersion, event.device) == ("18.1", "iPhone16,1"))
    }
    let ids = events.map(\.eventID)
    #expect(ids == ids.sorted() && Set(ids + [session]).count == 4)
  }

  /// Where sessions split: a pull always starts one; a refresh or scroll-to-top starts one once
  /// the last has ended, or when it abandons a pull; a late `error_shown` and a refresh during a
  /// refresh stay with the session they belong to.
  @Test func sessionsSplitWhereTheContractSplitsThem() {
    let lines = Collected<String>()
    let recorder = Self.recorder(app: "phlock", lines: lines, clock: ManualClock())
    let script: [(EventPayload, Int)] = [
      (.pullStart, 0), (.pullMove(distance: 20, offset: nil), 0), (.release(distance: 20), 0),
      (.refreshStart(trigger: .programmatic), 1), (.indicatorShown(nil), 1), (.indicatorHidden, 1),
      (.loadComplete(ok: false, error: nil), 1), (.errorShown(message: "offline"), 1),
      (.scrollToTop, 2), (.refreshStart(trigger: .tabReselect), 2), (.loadComplete(ok: true, error: nil), 2),
      (.indicatorHidden, 2),
      (.pullStart, 3), (.pullMove(distance: 90, offset: nil), 3), (.release(distance: 90), 3),
      (.refreshStart(trigger: .pull), 3), (.refreshStart(trigger: .tabReselect), 3),
      // A pull during a refresh is a new interaction; the refresh it interrupts stays incomplete.
      (.pullStart, 4), (.pullMove(distance: 30, offset: nil), 4),
      // The pull was never released: a programmatic refresh is an interaction of its own.
      (.refreshStart(trigger: .programmatic), 5), (.indicatorShown(nil), 5), (.indicatorHidden, 5),
      // A pull refresh only the app's `onRefresh` saw (a library that hides the gesture) opens a
      // session once the last has ended, and a refresh during it is a double refresh...
      (Self.unobserved, 6), (.indicatorShown(nil), 6), (.loadComplete(ok: true, error: nil), 6), (.indicatorHidden, 6),
      (Self.unobserved, 7), (Self.unobserved, 7), (.indicatorHidden, 7),
      // ...and, like a programmatic one, it abandons a pull that never released.
      (.pullStart, 8), (.pullMove(distance: 30, offset: nil), 8), (Self.unobserved, 9), (.indicatorHidden, 9),
      // A pull refresh fired before the finger lifted starts at once: the release belongs to it,
      // and its hide ends the session.
      (.pullStart, 10), (.pullMove(distance: 90, offset: nil), 10), (.refreshStart(trigger: .pull), 10),
      (.release(distance: 95), 10), (.indicatorHidden, 10), (Self.unobserved, 11),
    ]
    for (payload, _) in script { recorder.record(payload) }
    let events = Self.decode(lines.all)
    var sessionOrder: [String] = []
    for event in events where !sessionOrder.contains(event.sessionID) { sessionOrder.append(event.sessionID) }
    #expect(events.map { sessionOrder.firstIndex(of: $0.sessionID)! } == script.map(\.1))
    // Each session's events count 0, 1, 2… in the order they were recorded.
    var recorded: [Int: Int] = [:]
    let seqs = script.map { _, session in
      defer { recorded[session, default: 0] += 1 }
      return recorded[session, default: 0]
    }
    #expect(events.map { $0.seq ?? -1 } == seqs)
    #expect(lines.all.filter { $0.contains(#""gesture_observed":false"#) }.count == 5)
  }

  static let unobserved = EventPayload.refreshStart(trigger: .pull, gestureObserved: false)

  @Test func aFlashIsReportedTheMomentTheIndicatorHides() {
    let clock = ManualClock()
    let findings = Collected<LiveFinding>()
    let recorder = Self.recorder(app: "padel", lines: Collected(), clock: clock, findings: findings)
    recorder.pullStart()
    clock.advance(by: .milliseconds(100))
    recorder.pullMove(distance: 40)
    recorder.armed(distance: 40)
    recorder.release(distance: 40)
    recorder.refreshStart()
    recorder.indicatorShown(recorder.behaviour.indicator)
    clock.advance(by: .milliseconds(180))
    recorder.loadComplete(ok: true)
    #expect(findings.all.isEmpty)
    recorder.indicatorHidden()
    #expect(
      findings.all == [
        LiveFinding(
          sessionID: recorder.currentSessionID!,
          violation: Violation(
            kind: .flash, at: clock.origin + 280, expected: "visible ≥ 1200 ms", actual: "visible 180 ms"))
      ])
    #expect(findings.all.first?.description.hasPrefix("flash in session ") == true)
  }

  /// ffci must show an error after a failed load, and may do so after the indicator hides (an
  /// alert after `.refreshable` returns): that finding waits until the session is closed.
  @Test func aMissingErrorIsJudgedWhenTheSessionCloses() {
    let clock = ManualClock()
    let findings = Collected<LiveFinding>()
    let recorder = Self.recorder(
      app: "ffci", screen: "TabPageView", lines: Collected(), clock: clock, findings: findings)
    func failedRefresh(invalidatingFirst: Bool) {
      recorder.pullStart()
      clock.advance(by: .milliseconds(50))
      recorder.armed(distance: 70)
      recorder.release(distance: 75)
      recorder.refreshStart()
      if invalidatingFirst { recorder.cacheInvalidated(key: "tab/1") }
      recorder.fetchStart()
      clock.advance(by: .milliseconds(300))
      recorder.loadComplete(ok: false, error: "offline")
      recorder.indicatorHidden()
    }

    failedRefresh(invalidatingFirst: true)
    recorder.errorShown(message: "Kunde inte uppdatera")
    failedRefresh(invalidatingFirst: false)
    let second = recorder.currentSessionID!
    #expect(findings.all.map(\.kind) == [.cacheOrder])
    recorder.closeSession()
    #expect(findings.all.map(\.kind) == [.cacheOrder, .errorNotShown])
    #expect(findings.all.allSatisfy { $0.sessionID == second })
    #expect(recorder.currentSessionID == nil)
  }

  /// Many tasks recording at once: every line arrives whole, and each session's `seq`s run
  /// 0, 1, 2... in the order of their timestamps.
  @Test func concurrentCallsKeepEveryLineAndContiguousSeqs() async {
    let lines = Collected<String>()
    let recorder = PullParityRecorder(app: "padel", sink: lines.sink)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for step in 0..<250 {
            if step % 50 == 0 { recorder.pullStart() } else { recorder.pullMove(distance: Double(task * 1000 + step)) }
          }
        }
      }
    }
    let events = Self.decode(lines.all)
    #expect(events.count == 2_000)
    #expect(Set(events.map(\.eventID)).count == 2_000)
    let sessions = Dictionary(grouping: events, by: \.sessionID)
    #expect(sessions.count == 40)
    for (_, session) in sessions {
      let bySeq = session.sorted { $0.seq! < $1.seq! }
      #expect(bySeq.map(\.seq!) == Array(0..<session.count))
      #expect(bySeq.map(\.timestamp) == bySeq.map(\.timestamp).sorted())
      #expect(bySeq.first?.payload == .pullStart)
    }
  }

  /// The system clock is the wall clock's epoch milliseconds and never steps back.
  @Test func theSystemClockIsWallTimeThatOnlyMovesForward() {
    let before = Date().timeIntervalSince1970 * 1000
    let clock = SystemRecorderClock()
    let readings = (0..<1_000).map { _ in clock.epochMilliseconds() }
    let after = Date().timeIntervalSince1970 * 1000
    #expect(readings == readings.sorted())
    // Between the two dates however long the machine took; the millisecond allows for the
    // moment between the clock's two readings of its sources.
    #expect(before - 1 <= readings[0] && readings[999] <= after + 1, "\(before) \(readings[0]) \(after)")
  }

  /// A recorder on the system clock, its wall time and monotonic time moved by the test: both
  /// together as time passes, `wall` alone when the system clock is set or the device sleeps.
  static func recorder(wall: ManualClock, monotonic: ManualClock, lines: Collected<String>) -> PullParityRecorder {
    let clock = SystemRecorderClock(
      wallMilliseconds: { wall.epochMilliseconds() }, monotonicMilliseconds: { monotonic.elapsedMs })
    return PullParityRecorder(app: "padel", sink: lines.sink, clock: clock, ids: UUIDv7Generator.seeded())
  }

  static func pass(_ duration: Duration, _ clocks: ManualClock...) {
    for clock in clocks { clock.advance(by: duration) }
  }

  /// The clock re-anchors when a session opens, and only when wall time moved more than 1,000 ms
  /// from the anchor: a step either way is followed by the next session, a slew is not.
  @Test(arguments: [
    (3_600_000.0, true), (-3_600_000, true), (1_001, true), (-1_001, true), (1_000, false), (-1_000, false),
    (999, false), (-999, false), (0, false),
  ])
  func theNextSessionFollowsWallTimeOnceItMovedMoreThanASecond(jump: Double, followed: Bool) {
    let (wall, monotonic, lines) = (ManualClock(), ManualClock(origin: 0), Collected<String>())
    let recorder = Self.recorder(wall: wall, monotonic: monotonic, lines: lines)
    recorder.pullStart()
    Self.pass(.milliseconds(100), wall, monotonic)
    recorder.cancel()
    wall.advance(by: .milliseconds(jump))
    Self.pass(.milliseconds(2_000), wall, monotonic)
    recorder.pullStart()
    Self.pass(.milliseconds(50), wall, monotonic)
    recorder.cancel()

    let events = Self.decode(lines.all)
    let start = wall.origin
    let moved = followed ? jump : 0
    #expect(events.map(\.timestamp) == [start, start + 100, start + 2_100 + moved, start + 2_150 + moved])
    #expect(Set(events.map(\.sessionID)).count == 2)
  }

  /// A wall clock set mid-gesture changes nothing in that session, not even an event that joins
  /// it after the indicator hid: its durations stay monotonic. The next session follows.
  @Test func aJumpInsideASessionWaitsForTheNextSession() {
    let (wall, monotonic, lines) = (ManualClock(), ManualClock(origin: 0), Collected<String>())
    let recorder = Self.recorder(wall: wall, monotonic: monotonic, lines: lines)
    recorder.refreshStart(trigger: .programmatic)
    Self.pass(.milliseconds(100), wall, monotonic)
    recorder.indicatorShown()
    wall.advance(by: .seconds(3_600))
    Self.pass(.milliseconds(1_500), wall, monotonic)
    recorder.loadComplete(ok: false)
    recorder.indicatorHidden()
    wall.advance(by: .seconds(-7_200))
    Self.pass(.milliseconds(100), wall, monotonic)
    recorder.errorShown(message: "offline")
    Self.pass(.milliseconds(100), wall, monotonic)
    recorder.refreshStart(trigger: .programmatic)

    let events = Self.decode(lines.all)
    let start = wall.origin
    #expect(
      events.map(\.timestamp) == [start, start + 100, start + 1_600, start + 1_600, start + 1_700, start - 3_598_200])
    #expect(events.map(\.seq) == [0, 1, 2, 3, 4, 0])
    #expect(Set(events.prefix(5).map(\.sessionID)).count == 1 && events[5].sessionID != events[0].sessionID)
  }

  /// A session that follows wall time back gets earlier `ts` than the one before, but its ids
  /// still sort after that session's: the generator keeps its last millisecond and counts on.
  @Test func aStepBackBetweenSessionsKeepsTheIdsUniqueAndInOrder() {
    let (wall, monotonic, lines) = (ManualClock(), ManualClock(origin: 0), Collected<String>())
    let recorder = Self.recorder(wall: wall, monotonic: monotonic, lines: lines)
    for _ in 0..<2 {
      recorder.pullStart()
      Self.pass(.milliseconds(100), wall, monotonic)
      recorder.pullMove(distance: 10)
      recorder.cancel()
      wall.advance(by: .seconds(-3_600))
      Self.pass(.milliseconds(1_000), wall, monotonic)
    }
    recorder.pullStart()

    let events = Self.decode(lines.all)
    let start = wall.origin
    let hour = 3_600_000.0
    #expect(
      events.map(\.timestamp) == [
        start, start + 100, start + 100, start + 1_100 - hour, start + 1_200 - hour, start + 1_200 - hour,
        start + 2_200 - 2 * hour,
      ])
    // In the order made: each session's id just before its first event's.
    var made: [String] = []
    for event in events {
      if !made.contains(event.sessionID) { made.append(event.sessionID) }
      made.append(event.eventID)
    }
    #expect(made.count == 10 && Set(made).count == 10)
    #expect(made == made.sorted())
    let last = UInt64(start) + 100
    #expect(made.map(UUIDv7GeneratorTests.milliseconds) == [last - 100, last - 100] + Array(repeating: last, count: 8))
  }

  /// Wall time drifting a little every session is caught up with once the drift since the last
  /// anchor, not since the last session, passes 1,000 ms.
  @Test func smallDriftsAddUpUntilTheyPassTheThreshold() {
    let (wall, monotonic, lines) = (ManualClock(), ManualClock(origin: 0), Collected<String>())
    let recorder = Self.recorder(wall: wall, monotonic: monotonic, lines: lines)
    for _ in 0..<4 {
      recorder.pullStart()
      wall.advance(by: .milliseconds(600))
      Self.pass(.milliseconds(10_000), wall, monotonic)
    }

    let start = wall.origin
    #expect(
      Self.decode(lines.all).map(\.timestamp) == [start, start + 10_000, start + 21_200, start + 31_200])
  }

  @Test func theBehaviourIsTheProfilesNumbers() {
    let padel = PullToRefreshBehaviour(profileNamed: "padel")
    #expect(padel.armThreshold == 24)
    #expect(padel.resistance == .factor(0.72))
    #expect(padel.minimumHoldMs == 1200)
    #expect(padel.indicator == IndicatorConfig(kind: .balls, count: 4, staggerMs: 120, cycleMs: 800))
    #expect(padel.label(for: .ready) == "Släpp för att uppdatera")
    #expect(padel.indicatorOffset(forPull: 50) == 36)
    // 33.34 × 0.72 = 24.0048 arms; 33.3 × 0.72 = 23.976 does not.
    #expect(padel.arms(atPull: 33.34) && !padel.arms(atPull: 33.3))
    #expect(padel.revealProgress(forPull: 40) == nil)

    let phlock = PullToRefreshBehaviour(profileNamed: "phlock")
    #expect(phlock.label(for: .pulling) == nil)
    #expect(phlock.revealProgress(forPull: 40) == 0.5)
    #expect(phlock.revealProgress(forPull: 200) == 1)
    #expect(phlock.barsRevealed(atProgress: 0.6) == 4)

    // An app with no profile gets the unconstrained one, as ingest does.
    let unknown = PullToRefreshBehaviour(profileNamed: "newapp")
    #expect(unknown.armThreshold == nil && unknown.minimumHoldMs == 0)
  }
}
