import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Profiles live in the database: the rules a session was derived with are stored with it, an
/// ingest refuses to derive an app with other rules, and reports read the stored ones.
@Suite struct ProfileStorageTests {
  static let myapp = #"{"profiles": [{"name": "myapp", "min_hold_ms": 500, "arm_threshold": 30}]}"#

  /// One complete pull-to-refresh of `app` as session `session`, starting at `t` (epoch ms).
  static func session(_ session: String, app: String = "myapp", at t: Double = 1_795_000_000_000) -> String {
    let events: [(Double, String)] = [
      (0, #""type":"pull_start""#), (100, #""type":"pull_move","distance":40"#),
      (200, #""type":"release","distance":45"#), (210, #""type":"refresh_start","trigger":"pull""#),
      (220, #""type":"indicator_shown""#), (400, #""type":"load_complete","ok":true"#),
      (800, #""type":"indicator_hidden""#),
    ]
    return events.enumerated().map { index, event in
      #"{"event_id":"\#(session)-\#(index)","session_id":"\#(session)","ts":\#(t + event.0),"platform":"ios","app":"\#(app)",\#(event.1)}"#
    }.joined(separator: "\n") + "\n"
  }

  @Test func aCustomProfileIsStoredAndAnIngestWithoutItIsRefused() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("p.sqlite")
    let profiles = try dir.write("profiles.json", Self.myapp)
    let first = try dir.write("first.jsonl", Self.session("s1"))
    let second = try dir.write("second.jsonl", Self.session("s2", at: 1_795_000_010_000))

    let ingest = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, "--profiles", profiles, first])
    #expect(ingest.exitCode == 0, "\(ingest.stderr)")

    let refused = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, second])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains("myapp: the database holds sessions derived with myapp v1; this would use no profile"))
    #expect(
      refused.stderr.contains("Pass the stored profiles with --profiles, or run `pullparity replay --profiles FILE`"))
    #expect(try Self.sessionIDs(db) == ["s1"], "a refused ingest stores nothing")

    let again = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, "--profiles", profiles, second])
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(try Self.sessionIDs(db) == ["s1", "s2"])

    // The report knows the profile without being given the file.
    let report = try Self.json(["report", "--db", db, "--format", "json", "--min-sessions", "1"])
    let tree = try JSONTree(parsing: JSONSerialization.data(withJSONObject: report))
    let stamps = try tree["context"]["profiles"].array.map {
      "\(try $0["name"].string) v\(try $0["version"].int) \(try $0["stored"].value ?? "missing")"
    }
    #expect(stamps == ["myapp v1 1"])
    #expect(try tree["apps"][0]["profile_version"].int == 1)
    #expect(try tree["apps"][0]["unit"].string == "pt")
  }

  @Test func anAppFirstDerivedWithoutAProfileRefusesOneLater() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("p.sqlite")
    let profiles = try dir.write("profiles.json", Self.myapp)
    let log = try dir.write("log.jsonl", Self.session("s1"))
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    let refused = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, "--profiles", profiles, log])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains("myapp: the database holds sessions derived with myapp v0; this would use myapp v1"))
    // Replay is the way to change the rules: it re-derives everything and stores the new profile.
    let replay = try CommandRun.pullparity(["replay", "--db", db, "--profiles", profiles])
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, "--profiles", profiles, log]).exitCode == 0)
    // And a replay that would drop the user's profile for want of its file refuses.
    let forgetful = try CommandRun.pullparity(["replay", "--db", db])
    #expect(forgetful.exitCode == 2)
    #expect(forgetful.stderr.contains("Pass --profiles with a file that defines myapp."))
  }

  /// After a replay with padel v3 (min hold 500 ms), every report shows and draws v3 without
  /// being given the file, and a plain ingest would mix in v1: refused.
  @Test func reportsShowTheStoredVersionAfterAReplay() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("p.sqlite")
    #expect(
      try CommandRun.pullparity(["ingest", "--quiet", "--db", db, RepositoryPaths.sampleEvents.path]).exitCode == 0)
    var file = try Self.json(["profiles", "--format", "json"])
    var list = try #require(file["profiles"] as? [[String: Any]])
    let index = try #require(list.firstIndex { $0["name"] as? String == "padel" })
    list[index]["version"] = 3
    list[index]["min_hold_ms"] = 500
    file["profiles"] = list
    let profiles = try dir.write("padel-v3.json", try JSONSerialization.data(withJSONObject: file))
    #expect(try CommandRun.pullparity(["replay", "--db", db, "--profiles", profiles]).exitCode == 0)

    let html = try CommandRun.pullparity(["report", "--db", db, "--app", "padel", "--format", "html"])
    #expect(html.stdout.contains("profile padel v3"))
    #expect(html.stdout.contains("min hold 500 ms"))
    #expect(!html.stdout.contains("min hold 1200 ms"))
    let text = try CommandRun.pullparity(["report", "--db", db, "--app", "padel"])
    #expect(text.stdout.contains("padel · profile padel v3 · trigger pull"))
    // With a 500 ms hold the PWA's early hides are no longer flashes.
    #expect(!text.stdout.contains("rules hold_compliance (pwa), flash (pwa)"))

    let refused = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, RepositoryPaths.sampleEvents.path])
    #expect(refused.exitCode == 2)
    #expect(
      refused.stderr.contains("padel: the database holds sessions derived with padel v3; this would use padel v2"))
  }

  static func json(_ arguments: [String]) throws -> [String: Any] {
    let run = try CommandRun.pullparity(arguments)
    #expect(run.exitCode == 0, "\(arguments): \(run.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
  }

  static func sessionIDs(_ path: String) throws -> [String] {
    try PullParityDatabase(path: path, readOnly: true).read { db in
      try String.fetchAll(db, sql: "SELECT session_id FROM sessions ORDER BY session_id")
    }
  }
}
