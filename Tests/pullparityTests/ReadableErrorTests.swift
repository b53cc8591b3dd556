import Foundation
import PullParityTestSupport
import Testing

/// Errors that say what was wrong without an unrelated usage line; ids as iOS writes them;
/// bad lines named at ingest and listed in full by `quarantine`; the ledger by `runs`.
@Suite struct ReadableErrorTests {
  static var db: String { SampleDatabase.path }

  @Test(arguments: [
    (["session", "nosuch"], "Error: no session \"nosuch\" in \(db)\n"),
    (["session", "0"], "Error: \"0\" matches several sessions: "),
    (
      ["report", "--since", "2026-13-45"],
      "Error: --since \"2026-13-45\" is not a date (YYYY-MM-DD) or an RFC 3339 time with an offset\n"
    ),
    (["qa", "--until", "yesterday"], "Error: --until \"yesterday\" is not a date"),
    (
      ["compare", "--app", "padel", "--baseline", "since=2026-13-45", "--candidate", "platform=ios"],
      "Error: --baseline: since=2026-13-45 is not a date (YYYY-MM-DD) or an RFC 3339 time with an offset\n"
    ),
    (["quarantine", "--reason", "bad"], "Error: --reason \"bad\" is not a reason; reasons: invalid_utf8, not_json,"),
    (["quarantine", "--limit=-1"], "Error: --limit must be 0 or more"),
    (["runs", "--limit=-1"], "Error: --limit must be 0 or more"),
  ])
  func errorsSayWhatWasWrong(arguments: [String], message: String) throws {
    let run = try CommandRun.pullparity(arguments + ["--db", Self.db])
    #expect(run.exitCode == 2, "\(arguments): \(run.stderr)")
    #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
    if !arguments.contains(where: { $0.hasPrefix("--limit") }) {
      #expect(!run.stderr.contains("Usage:"), "\(arguments): a data error is not a usage error")
    }
  }

  /// `quarantine` and `runs` share `--limit` and `--format` (ListingOptions), each command with
  /// its own word and default.
  @Test(arguments: [
    ("quarantine", "--limit <n>             At most this many lines; 0 for all. (default: 100)\n"),
    ("runs", "--limit <n>             At most this many runs; 0 for all. (default: 0)\n"),
  ])
  func listingsKeepTheirOwnLimit(command: String, line: String) throws {
    let run = try CommandRun.pullparity([command, "--help"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains(line), "\(run.stdout)")
    #expect(run.stdout.contains("--format <format>       Output format: text or json."))
  }

  /// A help text wraps its prose by itself; a backslash at a line's end belongs only to an
  /// example's shell continuation (a `\\` meant as a multi-line literal's continuation once
  /// printed as a stray backslash in `report` and `qa`).
  @Test(arguments: [
    "ingest", "report", "qa", "compare", "session", "replay", "profiles", "schema", "quarantine", "runs", "decode",
    "derive", "load",
  ])
  func helpProseHasNoStrayBackslash(command: String) throws {
    let run = try CommandRun.pullparity([command, "--help"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let stray = run.stdout.split(separator: "\n").filter { $0.hasSuffix("\\") && !$0.contains("pullparity ") }
    #expect(stray.isEmpty, "\(stray)")
  }

  /// iOS writes upper-case UUIDs, people type lower case (and the other way round).
  @Test(arguments: [
    "0c20f46e", "0C20F46E", "0C20F46E-C1F4-45DA-A54F-C5BA7AC6BC52", "0c20f46e-c1f4-45da-a54f-c5ba7ac6bc52",
  ])
  func sessionIdsMatchInAnyCase(id: String) throws {
    let run = try CommandRun.pullparity(["session", "--db", Self.db, id])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("Session 0c20f46e-c1f4-45da-a54f-c5ba7ac6bc52\n"))
  }

  @Test func anUpperCaseIdIsFoundWhateverCaseIsTyped() throws {
    let dir = try TemporaryDirectory()
    let log = try dir.write(
      "ios.jsonl", ProfileStorageTests.session("7D3F0A4E-1B2C-4D5E-8F90-A1B2C3D4E5F6", app: "padel"))
    let db = dir.path("upper.sqlite")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    let run = try CommandRun.pullparity(["session", "--db", db, "7d3f0a4e"])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.hasPrefix("Session 7D3F0A4E-1B2C-4D5E-8F90-A1B2C3D4E5F6\n"))
  }

  /// Eight bad lines: the summary names five with file, line and field, and points at the rest.
  static func ingestBadLines(in dir: TemporaryDirectory) throws -> (db: String, log: String, run: CommandRun) {
    var lines = ProfileStorageTests.session("good", app: "padel").split(separator: "\n").map(String.init)
    for i in 1...8 {
      lines.append(#"{"event_id":"bad-\#(i)","ts":1795000000000,"platform":"ios","app":"padel","type":"pull_start"}"#)
    }
    lines.append(
      #"{"event_id":"typed","session_id":"s","ts":"soon","platform":"ios","app":"padel","type":"pull_start"}"#)
    let log = try dir.write("mixed.jsonl", lines.joined(separator: "\n") + "\n")
    let db = dir.path("bad.sqlite")
    return (db, log, try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]))
  }

  @Test func ingestNamesTheFirstBadLinesAndCountsTheRest() throws {
    let dir = try TemporaryDirectory()
    let (_, log, run) = try Self.ingestBadLines(in: dir)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let named = run.stdout.split(separator: "\n").filter { $0.hasPrefix("    \(log):") }
    #expect(named.count == 5, "\(run.stdout)")
    #expect(named.first == "    \(log):8: missing_field: missing field `session_id`")
    #expect(run.stdout.contains("    …and 4 more: `pullparity quarantine --run 1` lists them\n"))
  }

  @Test func quarantineFiltersByRunReasonAndSource() throws {
    let dir = try TemporaryDirectory()
    let (db, log, _) = try Self.ingestBadLines(in: dir)
    let all = try CommandRun.pullparity(["quarantine", "--db", db])
    #expect(all.exitCode == 0)
    #expect(all.stdout.hasSuffix("9 quarantined lines.\n"), "\(all.stdout)")
    let typed = try CommandRun.pullparity(["quarantine", "--db", db, "--reason", "bad_timestamp", "--format", "json"])
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(typed.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 1)
    #expect(rows.first?["line"] as? Int == 16)
    #expect(rows.first?["source"] as? String == log)
    #expect((rows.first?["raw"] as? String)?.contains(#""ts":"soon""#) == true)
    #expect(rows.first?["run_id"] as? Int == 1)
    // The source as the ingest recorded it, or spelled another way that names the same file.
    let file = URL(fileURLWithPath: log)
    let withDot = file.deletingLastPathComponent().path + "/./" + file.lastPathComponent
    let withSlashes = file.deletingLastPathComponent().path + "//" + file.lastPathComponent
    for (arguments, count) in [
      (["--run", "1"], 9), (["--run", "2"], 0), (["--source", log], 9), (["--source", "x"], 0),
      (["--source", withDot], 9), (["--source", withSlashes], 9),
    ] {
      let run = try CommandRun.pullparity(["quarantine", "--db", db, "--format", "json"] + arguments)
      #expect((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [Any])?.count == count, "\(arguments)")
    }
    let limited = try CommandRun.pullparity(["quarantine", "--db", db, "--limit", "2"])
    #expect(limited.stdout.hasSuffix("Shown 2 of 9 quarantined lines; --limit 0 shows them all.\n"))
  }

  @Test func runsListsTheLedgerNewestFirst() throws {
    let dir = try TemporaryDirectory()
    let (db, log, _) = try Self.ingestBadLines(in: dir)
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log]).exitCode == 0)
    let json = try CommandRun.pullparity(["runs", "--db", db, "--format", "json"])
    let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(runs.map { $0["run_id"] as? Int } == [2, 1])
    #expect(runs.map { $0["status"] as? String } == ["completed", "completed"])
    #expect(runs[1]["events_stored"] as? Int == 7)
    #expect(runs[1]["quarantined"] as? Int == 9)
    #expect(runs[0]["duplicates"] as? Int == 7)
    #expect(runs[0]["quarantined"] as? Int == 0)
    #expect(runs[0]["already_quarantined"] as? Int == 9)
    #expect(runs[1]["sources"] as? [String] == [log])
    let text = try CommandRun.pullparity(["runs", "--db", db, "--limit", "1"])
    #expect(text.stdout.hasPrefix("run 2 · completed · started "), "\(text.stdout)")
    let unwrapped = text.stdout.replacingOccurrences(of: "\n    ", with: " ")
    #expect(
      unwrapped.contains(
        "\n  16 lines: 0 stored, 7 duplicates, 0 conflicts, 0 quarantined, 9 already quarantined, 0 blank, 0 resumed;"
          + " 0 sessions derived\n"), "\(text.stdout)")
    #expect(!text.stdout.contains("run 1"))
  }
}
