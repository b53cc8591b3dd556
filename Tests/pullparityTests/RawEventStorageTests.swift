import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// The raw events kept in compressed blocks (schema version 11): read back whole by `export`,
/// dropped by `retain` without touching what was derived, and converted from an older file on
/// its first write, also when that write is killed.
@Suite struct RawEventStorageTests {
  static func ingest(_ inputs: [String], _ db: String) throws -> CommandRun {
    try CommandRun.pullparity(["ingest", "--db", db, "--quiet"] + inputs)
  }

  /// Each line of `export --with-origin`: its source, line, byte offset and the event's bytes.
  static func origins(_ output: String) throws -> [(source: String, line: Int, offset: Int, raw: Substring)] {
    try output.split(separator: "\n").map { line in
      let marker = try #require(line.range(of: #","event":"#))
      let head = try JSONTree(parsing: String(line[..<marker.lowerBound]) + "}")
      let raw = line[marker.upperBound..<line.index(before: line.endIndex)]
      return (try head["source"].string, try head["line"].int, try head["byte_offset"].int, raw)
    }
  }

  @Test func exportGivesBackEveryStoredLineWhereItWasRead() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("export.sqlite")
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path], db).exitCode == 0)
    let export = try CommandRun.pullparity(["export", "--db", db, "--with-origin"])
    #expect(export.exitCode == 0, "\(export.stderr)")
    let lines = try Self.origins(export.stdout)
    let stored = try PullParityDatabase(path: db, readOnly: true).read {
      try Int.fetchOne($0, sql: "SELECT sum(events_stored) FROM ingest_runs")
    }
    #expect(lines.count == stored)
    var files: [String: Data] = [:]
    for line in lines {
      let file = try files[line.source] ?? Self.decompressed(line.source)
      files[line.source] = file
      let bytes = Data(line.raw.utf8)
      #expect(file[line.offset..<(line.offset + bytes.count)] == bytes, "\(line.source):\(line.line)")
      let before = file[..<line.offset]
      #expect(before.count { $0 == UInt8(ascii: "\n") } == line.line - 1, "\(line.source):\(line.line)")
    }
    // Without --with-origin: the same lines, bare.
    let bare = try CommandRun.pullparity(["export", "--db", db])
    #expect(bare.stdout.split(separator: "\n").map(String.init) == lines.map { String($0.raw) })
  }

  /// The file's bytes as ingest read them: a gzip file's decompressed.
  static func decompressed(_ path: String) throws -> Data {
    guard path.hasSuffix(".gz") else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
    return Data(try CommandRun.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc", path]).stdout.utf8)
  }

  @Test func exportSelectsBySessionTimeAppPlatformAndRun() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("select.sqlite")
    let padel = RepositoryPaths.sampleEvents.appendingPathComponent("padel-pwa.jsonl").path
    let ffci = RepositoryPaths.sampleEvents.appendingPathComponent("ffci-ios.jsonl.gz").path
    #expect(try Self.ingest([padel], db).exitCode == 0)
    #expect(try Self.ingest([ffci], db).exitCode == 0)
    func export(_ arguments: [String]) throws -> [JSONTree] {
      let run = try CommandRun.pullparity(["export", "--db", db] + arguments)
      #expect(run.exitCode == 0, "\(run.stderr)")
      return try run.stdout.split(separator: "\n").map { try JSONTree(parsing: String($0)) }
    }
    let all = try export([])
    let session = try all[0]["session_id"].string
    let count = try PullParityDatabase(path: db, readOnly: true).read {
      try Int.fetchOne($0, sql: "SELECT event_count FROM sessions WHERE session_id = ?", arguments: [session])
    }
    let ofSession = try export(["--session", session])
    #expect(ofSession.count == count)
    #expect(try ofSession.allSatisfy { try $0["session_id"].string == session })
    let second = try export(["--run", "2"])
    #expect(!second.isEmpty && second.count < all.count)
    #expect(try second.allSatisfy { try $0["app"].string == "ffci" })
    #expect(try export(["--app", "ffci", "--platform", "ios"]).count == second.count)
    #expect(try export(["--app", "padel", "--platform", "ios"]).isEmpty)
    let times = try all.map { try $0["ts"].double }.sorted()
    let middle = times[times.count / 2]
    let since = try export(["--since", Self.rfc3339(middle)])
    let until = try export(["--until", Self.rfc3339(middle)])
    #expect(since.count + until.count == all.count)
    #expect(try since.allSatisfy { try $0["ts"].double >= middle })
    #expect(try until.allSatisfy { try $0["ts"].double < middle })
  }

  static func rfc3339(_ ms: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: ms / 1000))
  }

  @Test func retainDropsOldRawEventsAndKeepsWhatWasDerived() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("retain.sqlite")
    // Transactions of 2,000 lines, as daily runs would be: blocks of a few hours of the files'
    // events, so that some are older than the date (`retain` drops whole blocks).
    let ingest = try CommandRun.pullparity([
      "ingest", "--db", db, "--quiet", "--transaction-lines", "2000", RepositoryPaths.sampleEvents.path,
    ])
    #expect(ingest.exitCode == 0, "\(ingest.stderr)")
    let database = try PullParityDatabase(path: db, readOnly: true)
    let kept = ["sessions", "violations", "quarantine"]
    let derived = try DatabaseDump.all(database, only: Set(kept))
    let runs = try DatabaseDump.rows(database, table: "ingest_runs", order: "run_id")
    let before = try CommandRun.pullparity(["export", "--db", db]).stdout.split(separator: "\n").count

    let retain = try CommandRun.pullparity(["retain", "--db", db, "--before", "2026-11-18"])
    #expect(retain.exitCode == 0, "\(retain.stderr)")
    let record = try #require(try database.read { try RawRetention.records($0) }.first)
    #expect(record.events > 0 && record.sessions > 0)
    #expect(retain.stdout.contains("Dropped \(record.events.formatted()) raw events older than 2026-11-18"))
    #expect(try DatabaseDump.all(database, only: Set(kept)) == derived)
    #expect(try DatabaseDump.rows(database, table: "ingest_runs", order: "run_id") == runs)
    let after = try CommandRun.pullparity(["export", "--db", db]).stdout.split(separator: "\n").count
    #expect(after == before - record.events)
    #expect(try CommandRun.pullparity(["retain", "--db", db, "--list"]).stdout.contains("\(record.sessions)"))

    // Replay keeps the rows of the sessions it cannot rebuild, and says how many.
    let replay = try CommandRun.pullparity(["replay", "--db", db])
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.contains("Kept as stored: \(record.sessions) sessions whose raw events"), "\(replay.stdout)")
    #expect(replay.stdout.contains("gone: 0"))
    #expect(try DatabaseDump.all(database, only: Set(kept)) == derived)
    // Ingesting the same files again changes nothing either.
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path], db).exitCode == 0)
    #expect(try DatabaseDump.all(database, only: Set(kept)) == derived)

    let dropped = try #require(
      try database.read {
        try String.fetchOne(
          $0, sql: "SELECT session_id FROM sessions JOIN sessions_without_raw USING (session_ref) LIMIT 1")
      })
    let session = try CommandRun.pullparity(["session", "--db", db, dropped])
    #expect(session.exitCode == 2)
    #expect(session.stderr.contains("can no longer be derived again: `pullparity retain` dropped raw events"))
  }

  // MARK: - Upgrading a file of schema version 9

  static let upgradeEvents = 150_000

  /// A schema version 9 file holding `events` rows of `upgradeEvents` lines of `source`.
  static func version9File(_ path: String, source: String) throws -> [String] {
    let lines = (0..<upgradeEvents).map { i in
      #"{"event_id":"e\#(i)","session_id":"s\#(i / 20)","ts":\#(1_795_000_000_000 + i),"platform":"ios","#
        + #""app":"padel","type":"pull_start","n":\#(i)}"#
    }
    let queue = try OldSchemaFile.create(path, version: 9)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO sources (source_id, name) VALUES (1, ?)", arguments: [source])
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO events (event_id, id_hash, session_id, session_ref, ts_ms, platform, app, type, source_id,
                              line, byte_offset, raw)
          VALUES (?, ?, ?, ?, ?, 'ios', 'padel', 'pull_start', 1, ?, ?, ?)
          """)
      var offset = 0
      for (i, line) in lines.enumerated() {
        try insert.execute(arguments: [
          "e\(i)", EventKey.of("e\(i)"), "s\(i / 20)", i / 20 + 1, 1_795_000_000_000 + i, i + 1, offset, line,
        ])
        offset += line.utf8.count + 1
      }
    }
    return lines
  }

  static func applied(_ path: String) throws -> [String] {
    try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
  }

  @Test func anOlderFileIsConvertedOnItsFirstWriteAndAKillMidwayLeavesItAsItWas() throws {
    let dir = try TemporaryDirectory()
    let source = "old.jsonl"
    let killed = dir.path("killed.sqlite")
    let lines = try Self.version9File(killed, source: source)
    let clean = dir.path("clean.sqlite")
    try FileManager.default.copyItem(atPath: killed, toPath: clean)
    // Read-only commands keep refusing the older file.
    let report = try CommandRun.pullparity(["report", "--db", killed])
    #expect(report.exitCode == 2)

    // The first write converts; it is killed once the conversion has written to the log.
    let process = Process()
    process.executableURL = RepositoryPaths.executable
    process.arguments = ["replay", "--db", killed]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    while process.isRunning, Self.walBytes(killed) < 1 << 19 { usleep(2_000) }
    try #require(process.isRunning, "the conversion finished before it could be killed")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(!(try Self.applied(killed)).contains("0011_compressed_raw_events"))
    #expect(
      try DatabaseQueue(path: killed).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") } == lines.count)

    // Run again, it completes; so does the same on a copy never interrupted: the same content.
    for path in [killed, clean] {
      let run = try CommandRun.pullparity(["replay", "--db", path])
      #expect(run.exitCode == 0, "\(run.stderr)")
      #expect(try Self.applied(path).contains("0011_compressed_raw_events"))
    }
    let blocks = "SELECT block_id, lines, first_ts_ms, last_ts_ms, raw_bytes, hex(data) FROM event_blocks"
    let content = try [killed, clean].map { path in
      try DatabaseQueue(path: path).read { db in
        (
          try Row.fetchAll(db, sql: blocks + " ORDER BY block_id").map(\.description),
          try Row.fetchAll(db, sql: "SELECT * FROM event_keys ORDER BY id_hash").map(\.description)
        )
      }
    }
    #expect(content[0].0 == content[1].0 && content[0].1 == content[1].1)
    // Every line is there with where it was read.
    let export = try CommandRun.pullparity(["export", "--db", killed, "--with-origin"])
    let exported = try Self.origins(export.stdout)
    #expect(exported.map { String($0.raw) } == lines)
    #expect(exported.map(\.line) == Array(1...lines.count))
    #expect(exported.allSatisfy { $0.source == source })
    let tables = try DatabaseQueue(path: killed).read {
      try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE name IN ('events', 'session_spans')")
    }
    #expect(tables.isEmpty)
  }

  static func walBytes(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
  }
}
