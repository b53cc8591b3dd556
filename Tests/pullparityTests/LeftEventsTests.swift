import Foundation
import PullParityStore
import PullParityTestSupport
import Testing

/// `load --leave-events`: a run's rows without its raw events, which `session` and `replay`
/// read back from the run directory when asked (docs/distributed-formats.md).
@Suite struct LeftEventsTests {
  static let label =
    #"{"event_id":"e3","session_id":"s1","ts":1794970800050,"platform":"pwa","app":"padel","type":"label","#
    + #""text":"Dra f\u00f6r att \"ladda\"\u001b[2J","state":"pulling"}"#
  static let other =
    #"{"event_id":"f1","session_id":"s2","ts":1794970900000,"platform":"ios","app":"padel","type":"pull_start"}"#

  /// Two sessions (one with a label), a bad line: the rows every test compares.
  static func run(in dir: TemporaryDirectory, name: String = "run", lines: [String]? = nil) throws -> String {
    let lines = lines ?? [PipeVerbTests.event, label, PipeVerbTests.release, other, "oops"]
    _ = try dir.write("\(name).jsonl", lines.joined(separator: "\n") + "\n")
    return try PipeVerbTests.runDirectory(in: dir, name: name, input: PipeVerbTests.pipeInput("\(name).jsonl", lines))
  }

  static func load(_ run: String, _ db: String, leaving: Bool = true) throws -> CommandRun {
    try CommandRun.pullparity(["load", run, "--db", db] + (leaving ? ["--leave-events"] : []))
  }

  static let tables: [(table: String, columns: String, order: String)] = [
    ("sessions", "*", "session_ref"),
    ("violations", "*", "session_ref, ordinal"),
    ("quarantine", "source, line, byte_offset, category, reason, raw, event_id", "source, byte_offset"),
    ("profiles", "name, version, content_hash, definition", "name"),
    ("labelled_sessions", "*", "session_ref"),
    (
      "ingest_runs", "status, sources, lines_read, duplicates, conflicts, quarantined, sessions_derived, parser",
      "run_id"
    ),
  ]

  @Test func aLoadLeavingEventsHasANormalLoadsRowsAndNoEvent() throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    #expect(try Self.load(run, dir.path("n.sqlite"), leaving: false).exitCode == 0)
    let load = try Self.load(run, dir.path("l.sqlite"))
    #expect(load.exitCode == 0, "\(load.stderr)")
    let absolute = URL(fileURLWithPath: run).resolvingSymlinksInPath().path
    #expect(load.stdout.contains("5 lines read, 4 events left in \(absolute), 0 duplicates"), "\(load.stdout)")
    let (normal, left) = (
      try PullParityDatabase(path: dir.path("n.sqlite")), try PullParityDatabase(path: dir.path("l.sqlite"))
    )
    for (table, columns, order) in Self.tables {
      let got = try DatabaseDump.rows(left, table: table, columns: columns, order: order)
      #expect(got == (try DatabaseDump.rows(normal, table: table, columns: columns, order: order)), "\(table)")
    }
    #expect(try DatabaseDump.rows(left, table: "labelled_sessions", columns: "*", order: "session_ref").count == 1)
    for table in ["event_keys", "event_blocks", "session_blocks"] { #expect(try DatabaseDump.count(left, table) == 0) }
    let recorded = try DatabaseDump.rows(
      left, table: "left_event_runs", columns: "directory, events, files", order: "run_id")
    #expect(recorded == [#"[directory:"\#(absolute)" events:4 files:"[\"part-00000.json\"]"]"#], "\(recorded)")
    let runs = try CommandRun.pullparity(["runs", "--db", dir.path("l.sqlite")])
    let unwrapped = runs.stdout.replacing(#/\s+/#, with: " ")
    #expect(unwrapped.contains("raw events not stored: 4 left in \(absolute) (load --leave-events)"), "\(runs.stdout)")
  }

  /// `session --read-events` prints what `session` prints on a normally loaded file, the
  /// label's escape sequence escaped alike; without the flag it says where the events are.
  @Test func sessionReadsTheEventsBackOnlyWhenAsked() throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    _ = try Self.load(run, dir.path("n.sqlite"), leaving: false)
    _ = try Self.load(run, dir.path("l.sqlite"))
    let expected = try CommandRun.pullparity(["session", "s1", "--db", dir.path("n.sqlite")])
    #expect(expected.exitCode == 0 && expected.stdout.contains(#"\u{1b}"#), "\(expected.stdout)")
    for id in ["s1", "S1"] {
      let read = try CommandRun.pullparity(["session", id, "--read-events", "--db", dir.path("l.sqlite")])
      #expect(read.exitCode == 0, "\(read.stderr)")
      #expect(read.stdout == expected.stdout)
    }
    let plain = try CommandRun.pullparity(["session", "s1", "--db", dir.path("l.sqlite")])
    #expect(plain.exitCode == 2)
    let absolute = URL(fileURLWithPath: run).resolvingSymlinksInPath().path
    #expect(
      plain.stderr.contains(
        "the raw events of session s1 are not in \(dir.path("l.sqlite")): `pullparity load --leave-events` left "
          + "them in \(absolute) (run 1); add --read-events to read them from there"), "\(plain.stderr)")
  }

  /// `replay --read-events` derives the left sessions as a replay of a normally loaded file
  /// does; without it they are kept as loaded, and it says so.
  @Test func replayDerivesLeftSessionsOnlyWhenAsked() throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    let (normal, left) = (dir.path("n.sqlite"), dir.path("l.sqlite"))
    _ = try Self.load(run, normal, leaving: false)
    _ = try Self.load(run, left)
    let kept = try CommandRun.pullparity(["replay", "--db", left])
    #expect(kept.exitCode == 0, "\(kept.stderr)")
    let absolute = URL(fileURLWithPath: run).resolvingSymlinksInPath().path
    #expect(kept.stdout.hasPrefix("Replayed 0 events into 2 sessions"), "\(kept.stdout)")
    #expect(
      kept.stdout.contains(
        "Kept as loaded: 2 sessions whose raw events `pullparity load --leave-events` left in \(absolute); add "
          + "--read-events to derive them again from there."), "\(kept.stdout)")
    let expected = try CommandRun.pullparity(["replay", "--db", normal])
    let read = try CommandRun.pullparity(["replay", "--read-events", "--db", left])
    #expect(read.exitCode == 0, "\(read.stderr)")
    let withoutTime = { (text: String) in text.replacing(#/ in [0-9.]+ s\./#, with: ".") }
    #expect(withoutTime(read.stdout) == withoutTime(expected.stdout), "\(read.stdout)")
    let (n, l) = (try PullParityDatabase(path: normal), try PullParityDatabase(path: left))
    for (table, columns, order) in Self.tables.prefix(2) {
      #expect(
        try DatabaseDump.rows(l, table: table, columns: columns, order: order)
          == (try DatabaseDump.rows(n, table: table, columns: columns, order: order)), "\(table)")
    }
    #expect(try DatabaseDump.count(l, "left_event_sessions") == 2)
  }

  /// What cannot be right is refused, naming the file and why, and leaves the file as it was:
  /// stored events beside sessions whose events are left, and one session in two run
  /// directories.
  @Test(arguments: [
    (
      "ingest", "l.sqlite",
      "l.sqlite holds sessions loaded with --leave-events, whose raw events are in RUN, not in the file: ingest "
        + "cannot check its events against theirs"
    ),
    (
      "load", "l.sqlite",
      "l.sqlite holds sessions loaded with --leave-events, whose raw events are in RUN, not in the file: load "
        + "without --leave-events cannot check"
    ),
    (
      "leave", "n.sqlite",
      "n.sqlite holds 2 sessions whose events are stored in it (ingest, or load without --leave-events): a run "
        + "whose events are left in SECOND cannot be checked against them"
    ),
    (
      "leave", "l.sqlite",
      "second/json/events/part-00000.json:1: session \"s1\" is in the run loaded from RUN too, and a session's "
        + "events must be in one run directory"
    ),
  ])
  func mixingStoredAndLeftEventsIsRefused(command: String, file: String, message: String) throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    let db = dir.path(file)
    _ = try Self.load(run, db, leaving: file == "l.sqlite")
    let second = try Self.run(in: dir, name: "second", lines: [PipeVerbTests.release.replacing("e2", with: "e9")])
    let before = try DatabaseDump.rows(try PullParityDatabase(path: db), table: "sessions", columns: "*", order: "1")
    let refused =
      switch command {
      case "ingest": try CommandRun.pullparity(["ingest", "--db", db, "second.jsonl"], currentDirectory: dir.url)
      case "load": try Self.load(second, db, leaving: false)
      default: try Self.load(second, db)
      }
    #expect(refused.exitCode == 2)
    let absolute = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    let expected = message.replacing("RUN", with: absolute(run)).replacing("SECOND", with: absolute(second))
    #expect(refused.stderr.contains(dir.path(expected)) || refused.stderr.contains(expected), "\(refused.stderr)")
    let after = try DatabaseDump.rows(try PullParityDatabase(path: db), table: "sessions", columns: "*", order: "1")
    #expect(after == before)
  }

  /// The same directory loaded again (a daily `--append` dataset) replaces what it stored: the
  /// file holds the run's sessions once, the bad line quarantined once.
  @Test func theSameDirectoryLoadedAgainReplacesItsSessions() throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    let db = dir.path("l.sqlite")
    _ = try Self.load(run, db)
    let once = try DatabaseDump.rows(
      try PullParityDatabase(path: db), table: "sessions", columns: "session_id, outcome", order: "1")
    let again = try Self.load(run, db)
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(again.stdout.contains("1 already quarantined, 2 sessions"), "\(again.stdout)")
    let database = try PullParityDatabase(path: db)
    #expect(try DatabaseDump.rows(database, table: "sessions", columns: "session_id, outcome", order: "1") == once)
    #expect(try DatabaseDump.count(database, "left_event_sessions") == 2)
    #expect(try DatabaseDump.count(database, "quarantine") == 1)
    let session = try CommandRun.pullparity(["session", "s2", "--read-events", "--db", db])
    #expect(session.exitCode == 0, "\(session.stderr)")
    let replay = try CommandRun.pullparity(["replay", "--read-events", "--db", db])
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.hasPrefix("Replayed 4 events into 2 sessions"), "\(replay.stdout)")
  }

  /// Export and retain see only stored events, and say where the others are.
  @Test(arguments: [["export"], ["retain", "--before", "2030-01-01"]])
  func commandsThatReadStoredEventsSayWhereTheLeftOnesAre(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    _ = try Self.load(run, dir.path("l.sqlite"))
    let result = try CommandRun.pullparity(command + ["--db", dir.path("l.sqlite")])
    #expect(result.exitCode == 0, "\(result.stderr)")
    let absolute = URL(fileURLWithPath: run).resolvingSymlinksInPath().path
    #expect(
      result.stderr.contains(
        "Note: the raw events of 2 sessions are not in \(dir.path("l.sqlite")): `pullparity load --leave-events` "
          + "left them in \(absolute); "), "\(result.stderr)")
  }

  /// A run directory changed since it was loaded is named, not read as if it were the run.
  @Test func aRunDirectoryChangedSinceTheLoadIsNamed() throws {
    let dir = try TemporaryDirectory()
    let run = try Self.run(in: dir)
    _ = try Self.load(run, dir.path("l.sqlite"))
    try FileManager.default.moveItem(
      atPath: run + "/json/events/part-00000.json", toPath: run + "/json/events/part-00001.json")
    let session = try CommandRun.pullparity(["session", "s1", "--read-events", "--db", dir.path("l.sqlite")])
    #expect(session.exitCode == 2)
    #expect(
      session.stderr.contains(
        "holds 1 part files; load (run 1) read 1 (part-00001.json where it read part-00000.json): the run "
          + "directory changed since it was loaded"), "\(session.stderr)")
  }
}
