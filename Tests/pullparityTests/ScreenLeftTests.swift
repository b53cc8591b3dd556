import Foundation
import PullParityTestSupport
import Testing

/// Contract v1.2 end to end (#39): leaving the screen mid-refresh, a user pulling again, pending
/// judgements said, and the small items (gzip by content, an export that matches nothing, the
/// rate of a re-ingest).
@Suite struct ScreenLeftTests {
  static let day = 1_795_000_000_000.0

  static func line(
    _ id: String, _ session: String, _ t: Double, _ body: String, platform: String = "pwa", install: String? = nil
  ) -> String {
    let installField = install.map { #","install_id":"\#($0)","screen":"feed""# } ?? ""
    return #"{"event_id":"\#(id)","session_id":"\#(session)","ts":\#(t),"platform":"\#(platform)","app":"padel","#
      + body + installField + "}"
  }

  /// A padel pull refresh whose indicator is still up when `end` happens 300 ms into it.
  static func refreshLeft(_ session: String, at t: Double, end: String?) -> [String] {
    var lines = [
      line("\(session)1", session, t, #""type":"pull_start""#),
      line("\(session)2", session, t + 20, #""type":"pull_move","distance":40"#),
      line("\(session)3", session, t + 40, #""type":"release","distance":40"#),
      line("\(session)4", session, t + 60, #""type":"refresh_start","trigger":"pull""#),
      line("\(session)5", session, t + 70, #""type":"indicator_shown""#),
    ]
    if let end { lines.append(line("\(session)6", session, t + 360, end)) }
    return lines
  }

  static func sql(_ db: String, _ query: String) throws -> String {
    try CommandRun.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, query]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Leaving 0.3 s into a refresh, with the data moved 40 s past it: abandoned, not stuck, and
  /// no unexpected event; the day's *abandoned during refresh* counts it.
  @Test func navigatingAwayMidRefreshIsAbandonedNotStuck() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("left.sqlite")
    let lines =
      Self.refreshLeft("left", at: Self.day, end: #""type":"screen_left","reason":"navigation""#)
      + [Self.line("later", "later", Self.day + 40_000, #""type":"pull_start""#)]
    let log = try dir.write("left.jsonl", lines.joined(separator: "\n") + "\n")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    #expect(
      try Self.sql(
        db, "SELECT outcome, stuck_refresh, judge_again_at_ms IS NULL FROM sessions WHERE session_id = 'left'")
        == "abandoned|0|1")
    #expect(try Self.sql(db, "SELECT count(*) FROM violations") == "0")
    #expect(
      try Self.sql(
        db, "SELECT abandoned, abandoned_during_refresh_sessions, abandoned_during_refresh_judged FROM daily_parity")
        == "1|1|1")
    let session = try CommandRun.pullparity(["session", "left", "--db", db])
    #expect(session.stdout.contains("outcome abandoned"), "\(session.stdout)")
    #expect(session.stdout.contains("No findings."))
    let report = try CommandRun.pullparity(["report", "--db", db, "--format", "json"])
    #expect(report.stdout.contains("abandoned_during_refresh_rate"), "\(report.stderr)")
  }

  /// A log that ends with the spinner up: `session` says what is pending and until when, never
  /// "No findings", and `qa` says so too.
  @Test func aRefreshStillRunningAtTheEndOfTheDataIsPending() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("pending.sqlite")
    let log = try dir.write(
      "hang.jsonl", Self.refreshLeft("hang", at: Self.day, end: nil).joined(separator: "\n") + "\n")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    let session = try CommandRun.pullparity(["session", "hang", "--db", db])
    #expect(session.stdout.contains("stuck pending"), "\(session.stdout)")
    #expect(!session.stdout.contains("No findings."))
    // refresh_start at +60, stuck_after_ms 30 000.
    #expect(session.stdout.contains("stuck_refresh pending until the data reaches 2026-11-18T11:07:10.060Z"))
    let qa = try CommandRun.pullparity(["qa", "--db", db])
    #expect(qa.stdout.contains("Pending: padel/pwa 1 session waiting for the data to reach"), "\(qa.stdout)")
    let json = try CommandRun.pullparity(["qa", "--db", db, "--format", "json"])
    #expect(json.stdout.contains(#""pending""#))
    #expect(try Self.sql(db, "SELECT pending_sessions FROM daily_parity") == "1")
  }

  /// v1.2: a user who pulls again 200 ms after a refresh ended is no repeated refresh; the app
  /// firing onRefresh again (no pull) while the refresh runs is one.
  @Test func aSecondPullIsNeverARepeatedRefresh() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("repeat.sqlite")
    func refresh(_ session: String, at t: Double, pulled: Bool) -> [String] {
      var lines: [String] = []
      if pulled {
        lines += [
          Self.line("\(session)1", session, t, #""type":"pull_start""#, install: "i1"),
          Self.line("\(session)2", session, t + 20, #""type":"pull_move","distance":40"#, install: "i1"),
          Self.line("\(session)3", session, t + 40, #""type":"release","distance":40"#, install: "i1"),
        ]
      }
      let observed = pulled ? "" : #","gesture_observed":false"#
      lines += [
        Self.line("\(session)4", session, t + 60, #""type":"refresh_start""# + observed, install: "i1"),
        Self.line("\(session)5", session, t + 70, #""type":"indicator_shown""#, install: "i1"),
        Self.line("\(session)6", session, t + 600, #""type":"load_complete","ok":true"#, install: "i1"),
        Self.line("\(session)7", session, t + 1_300, #""type":"indicator_hidden""#, install: "i1"),
      ]
      return lines
    }
    let lines =
      refresh("p1", at: Self.day, pulled: true) + refresh("p2", at: Self.day + 1_440, pulled: true)
      + refresh("cb", at: Self.day + 1_800, pulled: false)
    let log = try dir.write("again.jsonl", lines.joined(separator: "\n") + "\n")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    #expect(
      try Self.sql(
        db,
        "SELECT group_concat(r, ' ') FROM (SELECT session_id || '=' || repeated_refresh AS r FROM sessions ORDER BY session_id)"
      )
        == "cb=1 p1=0 p2=0")
  }

  /// `session` lists each finding the store holds for the session once: the machine's step
  /// findings (a `cancel` while refreshing), then those judged at the end with other sessions'
  /// data (a stuck refresh once the data moved past it, a repeated refresh), never one twice
  /// in place of another.
  @Test(arguments: [
    ("left", #""type":"cancel""#, ["unexpected_event", "stuck_refresh"]),
    ("twice", #""type":"refresh_start","gesture_observed":false"#, ["double_refresh", "stuck_refresh"]),
  ])
  func eachFindingIsListedOnce(session: String, end: String, kinds: [String]) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("once.sqlite")
    let lines =
      Self.refreshLeft(session, at: Self.day, end: end)
      + [Self.line("later", "later", Self.day + 40_000, #""type":"pull_start""#)]
    let log = try dir.write("once.jsonl", lines.joined(separator: "\n") + "\n")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    let stored = try Self.sql(db, "SELECT kind FROM violations WHERE session_id = '\(session)' ORDER BY kind")
    #expect(stored == kinds.sorted().joined(separator: "\n"))
    let output = try CommandRun.pullparity(["session", session, "--db", db]).stdout
    let findings = output.components(separatedBy: "\nFindings\n").last?.components(separatedBy: "\n\n").first ?? ""
    let listed = findings.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(listed.sorted() == kinds.sorted(), "\(output)")
  }

  /// A gzip file whose name does not say so is read by its content, not quarantined.
  @Test func aGzipFileIsRecognisedByItsContent() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("gz.sqlite")
    let plain = try dir.write(
      "log.jsonl", Self.refreshLeft("gz", at: Self.day, end: nil).joined(separator: "\n") + "\n")
    let named = dir.path("compressed.jsonl")
    _ = try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"gzip -c "$0" > "$1""#, plain, named])
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, named])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try Self.sql(db, "SELECT count(*) FROM quarantine") == "0")
    #expect(try Self.sql(db, "SELECT event_count FROM sessions WHERE session_id = 'gz'") == "5")
  }

  /// Ingesting the same file again stores nothing and says a rate that means something.
  @Test func aReingestSaysItsReadRate() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("again.sqlite")
    let log = try dir.write("log.jsonl", Self.refreshLeft("re", at: Self.day, end: nil).joined(separator: "\n") + "\n")
    let first = try CommandRun.pullparity(["ingest", "--db", db, log])
    #expect(first.stdout.contains("events/s stored"), "\(first.stdout)")
    let again = try CommandRun.pullparity(["ingest", "--db", db, log])
    #expect(again.exitCode == 0)
    #expect(again.stdout.contains("lines/s (nothing new stored)"), "\(again.stdout)")
    #expect(!again.stdout.contains(" 0 events/s"))
  }
}
