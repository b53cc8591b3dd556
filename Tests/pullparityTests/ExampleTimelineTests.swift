import Foundation
import GRDB
import PullParityCore
import PullParityTestSupport
import Testing

/// The HTML report's example failing sessions are drawn from their own stored events and
/// violations: one per failing rule, app and platform, each a session that broke that rule, and
/// each figure lists as many violations and events as the database holds for the session it
/// names (the sample's session ids are random, found by ref, not by id).
@Suite struct ExampleTimelineTests {
  struct Figure {
    var id: String
    var platform: String
    var rule: String
    var violations: Int
    var events: Int
  }

  /// Each example figure, in order. A figure lacking a part fails the test that reads it, naming
  /// the part, instead of trapping on a missing piece of the page.
  static func figures(_ html: String) throws -> [Figure] {
    try html.components(separatedBy: "<figure class=\"chart timeline\"").dropFirst().map { figure in
      let body = figure.components(separatedBy: "</figure>")[0]
      func text(after start: String, before end: String) throws -> String {
        let rest = try #require(body.range(of: start), "a timeline figure without \(start)")
        return String(body[rest.upperBound...]).components(separatedBy: end)[0]
      }
      let events = try text(after: "<summary>All ", before: " events")
      return Figure(
        id: try text(after: "session <code>", before: "</code>"),
        platform: try text(after: " data-platform=\"", before: "\""),
        rule: try text(after: " data-rule=\"", before: "\""),
        violations: body.components(separatedBy: "<li><span class=\"kind\">").count - 1, events: Int(events) ?? -1)
    }
  }

  /// "platform rule" of every rule some platform of the app fails, from the JSON report.
  static func failingRules(app: String) throws -> Set<String> {
    let run = try CommandRun.pullparity(["report", "--db", SampleDatabase.path, "--app", app, "--format", "json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    var failing: Set<String> = []
    for app in json["apps"] as? [[String: Any]] ?? [] {
      for group in app["groups"] as? [[String: Any]] ?? [] {
        for platform in group["platforms"] as? [[String: Any]] ?? [] {
          for rule in platform["rules"] as? [[String: Any]] ?? [] where rule["verdict"] as? String == "fail" {
            failing.insert("\(platform["platform"] as? String ?? "") \(rule["rule"] as? String ?? "")")
          }
        }
      }
    }
    return failing
  }

  @Test(arguments: ["padel", "ffci", "phlock"])
  func eachExampleShowsItsOwnViolationsAndEvents(app: String) throws {
    let run = try CommandRun.pullparity(["report", "--db", SampleDatabase.path, "--app", app, "--format", "html"])
    #expect(run.exitCode == 0 || run.exitCode == 1, "\(run.stderr)")
    let figures = try Self.figures(run.stdout)
    #expect(!figures.isEmpty, "the sample has failing \(app) sessions")
    // One example for each failing rule and platform, no more.
    let drawn = figures.map { "\($0.platform) \($0.rule)" }
    #expect(drawn.count == Set(drawn).count, "\(drawn)")
    #expect(Set(drawn) == (try Self.failingRules(app: app)))
    let queue = try SampleDatabase.readOnlyQueue()
    for figure in figures {
      let stored = try queue.read { db in
        try Row.fetchOne(
          db,
          sql: """
            SELECT (SELECT count(*) FROM violations v WHERE v.session_ref = s.session_ref) AS violations,
                   (SELECT group_concat(kind, ' ') FROM violations v WHERE v.session_ref = s.session_ref) AS kinds,
                   s.event_count AS events, s.platform AS platform
            FROM sessions s WHERE s.session_id = ?
            """, arguments: [figure.id])
      }
      #expect(stored?["violations"] == figure.violations, "\(figure.id)")
      #expect(stored?["events"] == figure.events, "\(figure.id)")
      #expect(stored?["platform"] == figure.platform, "\(figure.id)")
      // The session broke the rule it is the example of (hold compliance: by a flash or a hide).
      let kinds = Set(((stored?["kinds"] as String?) ?? "").split(separator: " ").map(String.init))
      let breaking: Set<String> =
        figure.rule == "hold_compliance" ? ["flash", "premature_hide", "late_hide"] : [figure.rule]
      #expect(!kinds.isDisjoint(with: breaking), "\(figure.id) is no example of \(figure.rule): \(kinds)")
    }
  }
}
