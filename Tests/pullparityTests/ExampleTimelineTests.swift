import Foundation
import GRDB
import PullParityTestSupport
import Testing

/// The HTML report's example failing sessions are drawn from their own stored events and
/// violations: each figure lists as many violations and events as the database holds for the
/// session it names (the sample's session ids are random, found by ref, not by id).
@Suite struct ExampleTimelineTests {
  /// (session id, violations listed, events listed) per example figure, in order.
  static func figures(_ html: String) -> [(id: String, violations: Int, events: Int)] {
    html.components(separatedBy: "<figure class=\"chart timeline\">").dropFirst().map { figure in
      let body = figure.components(separatedBy: "</figure>")[0]
      let id = body.components(separatedBy: "session <code>")[1].components(separatedBy: "</code>")[0]
      let events = body.components(separatedBy: "<summary>All ")[1].components(separatedBy: " events")[0]
      return (id, body.components(separatedBy: "<li><span class=\"kind\">").count - 1, Int(events) ?? -1)
    }
  }

  @Test(arguments: ["padel", "ffci", "phlock"])
  func eachExampleShowsItsOwnViolationsAndEvents(app: String) throws {
    let run = try CommandRun.pullparity(["report", "--db", SampleDatabase.path, "--app", app, "--format", "html"])
    #expect(run.exitCode == 0 || run.exitCode == 1, "\(run.stderr)")
    let figures = Self.figures(run.stdout)
    #expect(!figures.isEmpty, "the sample has failing \(app) sessions")
    let queue = try SampleDatabase.readOnlyQueue()
    for figure in figures {
      let stored = try queue.read { db in
        try Row.fetchOne(
          db,
          sql: """
            SELECT (SELECT count(*) FROM violations v WHERE v.session_ref = s.session_ref) AS violations,
                   s.event_count AS events
            FROM sessions s WHERE s.session_id = ?
            """, arguments: [figure.id])
      }
      #expect(stored?["violations"] == figure.violations, "\(figure.id)")
      #expect(stored?["events"] == figure.events, "\(figure.id)")
    }
  }
}
