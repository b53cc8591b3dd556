import PullParityCore
import PullParityRecorder
import PullParityStore
import PullParityTestSupport
import Testing

/// An app whose pull-to-refresh library only gives `onRefresh`: each refresh is one session of
/// its own, which the pipeline stores as a completed pull refresh whose gesture was not observed,
/// with no line quarantined and nothing unexpected.
@Suite struct CallbackOnlyIngestTests {
  @Test func eachRefreshTheAppOnlyHeardOfIsOneCompletedPullSession() async throws {
    let dir = try TemporaryDirectory()
    let log = dir.path("callback-only.jsonl")
    let clock = ManualClock()
    let (findings, errors) = (Collected<LiveFinding>(), Collected<RecorderError>())
    let recorder = PullParityRecorder(
      app: "ffci", appVersion: "5.1.0", screen: "FeedView", installID: "install-1", sink: FileEventSink(path: log),
      clock: clock, ids: UUIDv7Generator.seeded(3), onFinding: findings.append, onError: errors.append)
    let screen = CallbackOnlyScreen(recorder: recorder, clock: clock)
    let loads = [120.0, 800, 40, 2_500]
    var sessions: [String] = []
    for load in loads {
      try await screen.onRefresh {
        try? await clock.sleep(for: .milliseconds(load))
        return true
      }
      sessions.append(try #require(recorder.currentSessionID))
      // A user refreshing again after a few seconds, not a repeated refresh.
      clock.advance(by: .seconds(5))
    }
    recorder.closeSession()
    #expect(Set(sessions).count == loads.count, "one session per refresh")
    #expect(findings.all.isEmpty, "\(findings.all)")
    #expect(errors.all.isEmpty)

    // `--strict` exits 1 on a single quarantined line.
    let db = dir.path("callback-only.sqlite")
    let ingest = try CommandRun.pullparity(["ingest", "--strict", "--quiet", "--db", db, log])
    #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)")
    let queries = ReportQueries(try PullParityDatabase(path: db))
    let stored = try queries.sessions(SessionFilter()).sorted { $0.startedAtMs < $1.startedAtMs }
    #expect(stored.map(\.sessionID) == sessions)
    for (session, load) in zip(stored, loads) {
      let m = session.metrics
      #expect((m.outcome, m.trigger, m.gestureObserved) == (.completed, .pull, false), "\(session.sessionID)")
      #expect(m.loadMs == load && m.loadSucceeded == true && m.holdCompliant == true)
    }
    #expect(try queries.violations(SessionFilter()).map(\.kind) == [])
  }
}
