import Foundation
import PullParityTestSupport
import Testing

/// `--db` names a file PullParity may keep its data in: names that would throw the data away,
/// files that are not SQLite and other programs' databases are refused with exit 2, before
/// anything is written to them.
@Suite struct DatabaseFileTests {
  static let commands: [[String]] = [["ingest", "--quiet", RepositoryPaths.sampleEvents.path], ["report"], ["qa"]]

  @Test(
    arguments: [
      ("", "an empty name opens a temporary database that is thrown away; name a file"),
      (":memory:", ":memory: is an in-memory database, thrown away when the command ends; name a file"),
    ], commands)
  func throwawayDatabasesAreRefused(name: (String, String), command: [String]) throws {
    let run = try CommandRun.pullparity([command[0], "--db", name.0] + command.dropFirst())
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("--db: " + name.1), "\(run.stderr)")
  }

  enum Foreign: String, CaseIterable {
    case otherProgramsDatabase, textFile

    func create(at path: String) throws {
      switch self {
      case .otherProgramsDatabase:
        let sqlite = try CommandRun.run(
          URL(fileURLWithPath: "/usr/bin/sqlite3"),
          [path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x')"])
        try #require(sqlite.exitCode == 0)
      case .textFile:
        try Data("name,amount\nrent,900\n".utf8).write(to: URL(fileURLWithPath: path))
      }
    }

    var message: String {
      switch self {
      case .otherProgramsDatabase:
        "a SQLite database of another program (tables: notes), not a PullParity one; refusing to change it"
      case .textFile: "not a SQLite database; refusing to use it"
      }
    }
  }

  @Test(arguments: Foreign.allCases, commands)
  func foreignFilesAreRefusedUntouched(foreign: Foreign, command: [String]) throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("theirs.db")
    try foreign.create(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    let run = try CommandRun.pullparity([command[0], "--db", path] + command.dropFirst())
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("opening \(path): \(foreign.message)"), "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["theirs.db"])
  }

  @Test(arguments: commands)
  func aDirectoryIsRefusedByName(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity([command[0], "--db", dir.url.path] + command.dropFirst())
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("--db: \(dir.url.path) is a directory; name a database file"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
  }

  /// Every reader first asks whether it may write the file's directory; a one-character
  /// relative name once crashed that question (rc 132) in every read command.
  @Test(arguments: [
    ["report"], ["qa"], ["runs"], ["quarantine"], ["session", "ab3b74fe"],
    ["compare", "--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=ios"],
  ])
  func aOneLetterNameInTheCurrentDirectoryIsRead(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let ingest = try CommandRun.pullparity(
      ["ingest", "--quiet", "--db", "p", RepositoryPaths.sampleEvents.path], currentDirectory: dir.url)
    try #require(ingest.exitCode == 0, "\(ingest.stderr)")
    let run = try CommandRun.pullparity([command[0], "--db", "p"] + command.dropFirst(), currentDirectory: dir.url)
    #expect([0, 1].contains(run.exitCode), "\(run.exitCode): \(run.stderr)")
    #expect(!run.stdout.isEmpty)
  }

  /// A command whose input names nothing fails with exit 2 before it creates the database (or
  /// its lock file): no empty database is left behind.
  @Test(arguments: [
    (["ingest", "missing.jsonl"], "cannot open missing.jsonl: No such file or directory"),
    (["ingest", "logs"], "logs: no .jsonl or .ndjson files"), (["load", "logs"], "logs/summary.json: no run summary"),
    (["load", "parquet-only"], "parquet-only/json: no JSON tables: load reads them; run the job with --json-for-load"),
    (["load", "day1"], "cannot open day1: day1/run-2 holds another run's output, copied into this one"),
  ])
  func aCommandWithNoInputLeavesNoDatabase(command: [String], says: String) throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent("logs"), withIntermediateDirectories: true)
    // A run the job wrote without --json-for-load: its summary and Parquet, no JSON tables.
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent("parquet-only/parquet"), withIntermediateDirectories: true)
    _ = try dir.write("parquet-only/summary.json", Self.runSummary)
    // Day 1's run with day 2's copied into it (`hdfs dfs -get …/run-2 day1` nests it).
    for folder in ["day1/json", "day1/run-2/json"] {
      try FileManager.default.createDirectory(
        at: dir.url.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    _ = try dir.write("day1/summary.json", Self.runSummary)
    _ = try dir.write("day1/run-2/summary.json", Self.runSummary)
    let run = try CommandRun.pullparity(
      [command[0], "--db", "new.sqlite"] + command.dropFirst(), currentDirectory: dir.url)
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains(says), "\(run.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["day1", "logs", "parquet-only"])
  }

  static let runSummary = """
    {"format": "pullparity-run", "format_version": 1, "sources": ["a.jsonl"], "lines_read": 1, "blank_lines": 0,
     "events_stored": 1, "duplicates": 0, "conflicts": 0, "quarantined": 0, "already_quarantined": 0,
     "sessions_derived": 1, "tool_version": "0.1.0", "engine": "spark 4.0.0"}
    """

  /// A spool whose collector crashed before closing its file: ingest names the file it skips and
  /// how to close it, rather than only that the directory holds no log.
  @Test func aSpoolLeftOpenIsNamedWithHowToCloseIt() throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(
      at: dir.url.appendingPathComponent("spool"), withIntermediateDirectories: true)
    _ = try dir.write("spool/.open.jsonl", #"{"event_id":"a"}"# + "\n")
    let run = try CommandRun.pullparity(["ingest", "--db", "new.sqlite", "spool"], currentDirectory: dir.url)
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(
        "spool: no .jsonl or .ndjson files (optionally .gz) found; spool/.open.jsonl is a collector's spool file "
          + "left open"), "\(run.stderr)")
    #expect(run.stderr.contains("(`pullparity collect --spool spool`), which closes it as its first step, then ingest"))
  }

  @Test func anEmptyFileBecomesADatabase() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("new.db", "")
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", path, RepositoryPaths.sampleEvents.path])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try CommandRun.pullparity(["report", "--db", path]).exitCode == 0)
  }
}
