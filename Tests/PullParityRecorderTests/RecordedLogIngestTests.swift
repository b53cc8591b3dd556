import Foundation
import PullParityCore
import PullParityIngest
import PullParityRecorder
import PullParityStore
import PullParityTestSupport
import Testing

/// Gestures played through the recorder into a `.jsonl` file, ingested by the real pipeline:
/// every line is stored and every session's metrics and violations are what the script implies,
/// worked out by hand below.
@Suite struct RecordedLogIngestTests {
  /// Samples every 16.5 ms: fractional milliseconds that must survive the log.
  static let interval = Duration.milliseconds(16.5)
  /// Padel arms at 35 (35 × 0.72 = 25.2 ≥ 24; 30 × 0.72 = 21.6), the 7th sample: 115.5 ms.
  static let padelPull = Array(stride(from: 5.0, through: 60, by: 5))
  /// Phlock arms at 80, the 8th sample: 132 ms.
  static let phlockPull = Array(stride(from: 10.0, through: 100, by: 10))

  struct Played {
    var sessions: [String: (metrics: SessionMetrics, violations: [ViolationKind], empty: Bool)] = [:]
    var lines = 0
  }

  /// Plays the padel and phlock scripts into `path` and returns what each session must derive to.
  static func play(into path: String, findings: Collected<LiveFinding>) async throws -> Played {
    let clock = ManualClock()
    var played = Played()
    let padel = PullParityRecorder(
      app: "padel", appVersion: "3.9.0", screen: "matches", sink: FileEventSink(path: path), clock: clock,
      ids: UUIDv7Generator.seeded(1), onFinding: findings.append)
    let padelScreen = ScriptedScreen(recorder: padel, clock: clock)

    func expect(_ recorder: PullParityRecorder, _ metrics: SessionMetrics, _ violations: [ViolationKind] = []) {
      played.sessions[recorder.currentSessionID!] = (metrics, violations, recorder.empty ?? false)
      clock.advance(by: .seconds(5))
    }
    let armedPull = SessionMetrics(
      outcome: .completed, trigger: .pull, timeToArmMs: 115.5, armDistance: 35, clientArmDistance: 35,
      releaseDistance: 60, flash: false, prematureHide: false, lateHide: false, holdCompliant: true,
      labelViolations: 0, armMismatch: false, loadSucceeded: true, maxSampleGapMs: 16.5, maxOffsetError: 0,
      gestureObserved: true, stuckRefresh: false, droppedRefresh: false, abandonedDuringRefresh: false)
    func armed(load: Double, visible: Double) -> SessionMetrics {
      var metrics = armedPull
      metrics.loadMs = load
      metrics.visibleMs = visible
      return metrics
    }

    // Short of the threshold: 20 × 0.72 = 14.4, the release cancels.
    padelScreen.pull(through: [5, 10, 15, 20], every: interval)
    expect(
      padel,
      SessionMetrics(
        outcome: .cancelled, trigger: .pull, releaseDistance: 20, labelViolations: 0, maxSampleGapMs: 16.5,
        maxOffsetError: 0, gestureObserved: true, nearMiss: false))

    // A 200 ms load held to the 1200 ms minimum.
    #expect(padelScreen.pull(through: padelPull, every: interval))
    try await padelScreen.refresh(load: .milliseconds(200))
    expect(padel, armed(load: 200, visible: 1200))

    // The same load without the hold: the flash the helper prevents.
    padelScreen.pull(through: padelPull, every: interval)
    try await padelScreen.refresh(load: .milliseconds(200), holding: false)
    var flash = armed(load: 200, visible: 200)
    flash.flash = true
    flash.holdCompliant = false
    expect(padel, flash, [.flash])

    // A slow load on an empty screen: the indicator stays until the load is done.
    padel.empty = true
    padelScreen.pull(through: padelPull, every: interval)
    try await padelScreen.refresh(load: .milliseconds(3000))
    expect(padel, armed(load: 3000, visible: 3000))
    padel.empty = nil

    // A typo in the ready label.
    var typo = padelScreen
    typo.labelOverrides[.ready] = "Slapp för att uppdatera"
    typo.pull(through: padelPull, every: interval)
    try await typo.refresh(load: .milliseconds(200))
    var typoed = armed(load: 200, visible: 1200)
    typoed.labelViolations = 1
    expect(padel, typoed, [.labelText])

    // Phlock, appending to the same file through a sink of its own.
    let phlock = PullParityRecorder(
      app: "phlock", appVersion: "2.2.0", screen: "Feed", sink: FileEventSink(path: path), clock: clock,
      ids: UUIDv7Generator.seeded(2), onFinding: findings.append)
    let phlockScreen = ScriptedScreen(recorder: phlock, clock: clock)

    // Tab re-select: the first tap scrolls to the top, the second refreshes.
    phlock.scrollToTop()
    clock.advance(by: .milliseconds(700))
    try await phlockScreen.refresh(trigger: .tabReselect, load: .milliseconds(400))
    expect(
      phlock,
      SessionMetrics(
        outcome: .completed, trigger: .tabReselect, loadMs: 400, visibleMs: 1300, flash: false,
        prematureHide: false, lateHide: false, holdCompliant: true, loadSucceeded: true, stuckRefresh: false,
        abandonedDuringRefresh: false))

    // A pull that reveals the waveform bar by bar and arms at 80.
    phlockScreen.pull(through: phlockPull, every: interval)
    try await phlockScreen.refresh(load: .milliseconds(400))
    expect(
      phlock,
      SessionMetrics(
        outcome: .completed, trigger: .pull, timeToArmMs: 132, armDistance: 80, clientArmDistance: 80,
        releaseDistance: 100, loadMs: 400, visibleMs: 1300, flash: false, prematureHide: false, lateHide: false,
        holdCompliant: true, armMismatch: false, loadSucceeded: true, maxSampleGapMs: 16.5, maxOffsetError: 0,
        gestureObserved: true, stuckRefresh: false, droppedRefresh: false, abandonedDuringRefresh: false))
    return played
  }

  @Test func scriptedGesturesIngestToTheMetricsTheScriptImplies() async throws {
    let dir = try TemporaryDirectory()
    let log = dir.path("recorded.jsonl")
    let findings = Collected<LiveFinding>()
    let played = try await Self.play(into: log, findings: findings)

    let db = try PullParityDatabase(path: dir.path("recorded.sqlite"))
    let summary = try Ingestor(database: db, options: IngestOptions(toolVersion: "test"))
      .run(try InputCatalog.expand([log]))
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    // Ingest parses with simdjson; the reference parser reads every recorded line the same way.
    for line in lines {
      var simdjson = LineDecoder(.simdjson)
      var foundation = LineDecoder(.foundation)
      #expect(simdjson.decode(String(line)) == foundation.decode(String(line)), "\(line)")
    }
    #expect(summary.counts.quarantined == 0)
    #expect(summary.counts.linesRead == lines.count)
    #expect(summary.counts.eventsStored == lines.count)

    let queries = ReportQueries(db)
    let sessions = try queries.sessions(SessionFilter())
    let violations = try queries.violations(SessionFilter())
    #expect(Set(sessions.map(\.sessionID)) == Set(played.sessions.keys))
    for session in sessions {
      guard let want = played.sessions[session.sessionID] else { continue }
      #expect(session.metrics == want.metrics, "\(session.app) \(session.sessionID)")
      #expect(session.empty == want.empty, "\(session.sessionID)")
      #expect(session.platform == "ios")
      let kinds = violations.filter { $0.sessionID == session.sessionID }.map(\.kind)
      #expect(kinds == want.violations, "\(session.app) \(session.sessionID)")
    }

    // The live check found, at the same moments, exactly what the pipeline found afterwards.
    let live = findings.all.map { "\($0.sessionID) \($0.kind.rawValue) \($0.violation.at)" }
    let stored = violations.map { "\($0.sessionID) \($0.kind.rawValue) \($0.atMs)" }
    #expect(live.sorted() == stored.sorted())
    #expect(!live.isEmpty)
  }
}
