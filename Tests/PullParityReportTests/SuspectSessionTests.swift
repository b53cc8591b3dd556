import PullParityCore
import PullParityStore
import Testing

@testable import PullParityReport

/// A session with more events than any gesture has (a client sending one constant session id)
/// is flagged in every report's header, biggest first; ordinary sessions are not.
@Suite struct SuspectSessionTests {
  static func record(_ id: String, events: Int) -> SessionRecord {
    SessionRecord(
      sessionID: id, app: "padel", profile: "padel", profileVersion: 2, platform: "ios", appVersion: nil,
      screen: nil, empty: false, startedAtMs: 0, metrics: SessionMetrics(outcome: .cancelled), eventCount: events)
  }

  static func context(_ sessions: [SessionRecord]) -> ReportContext {
    var context = ReportContext(database: "db.sqlite", filter: .init(), toolVersion: "test", generatedAtMs: 0)
    context.span(sessions)
    return context
  }

  @Test func sessionsOverTheThresholdAreNamedInTheHeader() {
    let context = Self.context([
      Self.record("ok", events: 40), Self.record("at-limit", events: SessionSize.suspectEventCount),
      Self.record("null", events: 150_000), Self.record("undefined", events: 1_000_000),
    ])
    #expect(context.suspectSessions.map(\.sessionID) == ["undefined", "null"])
    let line = ReportHeader.lines(context).first { $0.label == "Suspect sessions" }
    #expect(
      line?.value
        == "2 with more than 100000 events, counted like any other (a client sending one constant session_id?): "
        + "undefined (1000000 events), null (150000 events)")
  }

  @Test func ordinarySessionsAddNoLine() {
    let context = Self.context([Self.record("a", events: 12), Self.record("b", events: 100_000)])
    #expect(context.suspectSessions.isEmpty)
    #expect(!ReportHeader.lines(context).contains { $0.label == "Suspect sessions" })
  }
}
