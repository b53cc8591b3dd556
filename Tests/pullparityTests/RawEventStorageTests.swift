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

  @Test func anOlderFileIsConvertedOnItsFirstWrite() throws {
    let dir = try TemporaryDirectory()
    let source = "old.jsonl"
    let path = dir.path("old.sqlite")
    let lines = try Self.version9File(path, source: source)
    // Read-only commands keep refusing the older file.
    let report = try CommandRun.pullparity(["report", "--db", path])
    #expect(report.exitCode == 2)

    let run = try CommandRun.pullparity(["replay", "--db", path])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try Self.applied(path).contains("0011_compressed_raw_events"))
    // 150,000 events: the conversion says what it does.
    #expect(
      run.stderr.contains("Converting \(path) to schema 11 (raw events in compressed blocks): \(lines.count) events."))
    #expect(run.stderr.contains("Converted \(lines.count) events in "))
    // Every line is there with where it was read.
    let export = try CommandRun.pullparity(["export", "--db", path, "--with-origin"])
    let exported = try Self.origins(export.stdout)
    #expect(exported.map { String($0.raw) } == lines)
    #expect(exported.map(\.line) == Array(1...lines.count))
    #expect(exported.allSatisfy { $0.source == source })
    let tables = try DatabaseQueue(path: path).read {
      try String.fetchAll(
        $0, sql: "SELECT name FROM sqlite_master WHERE name IN ('events', 'session_spans', 'events_to_convert')")
    }
    #expect(tables.isEmpty)
  }

  /// A schema version 10 file (a generated log with bad lines, duplicates and a conflict,
  /// ingested, then stored as version 10 stored it) is converted by an ingest of the same log;
  /// the ingest is killed once some batches of the conversion have committed. The next write
  /// goes on from there, and the file ends as a fresh ingest of the log leaves one.
  @Test func aKilledConversionGoesOnWhereItStoppedAndEndsAsAFreshIngest() throws {
    let dir = try TemporaryDirectory()
    let log = try CrashSafetyTests.mixedLog(in: dir, events: 150_000)
    let fresh = dir.path("fresh.sqlite")
    #expect(try Self.ingest([log], fresh).exitCode == 0)
    let killed = dir.path("killed.sqlite")
    let total = try OldSchemaFile.version10(from: fresh, to: killed)
    let clean = dir.path("clean.sqlite")
    try FileManager.default.copyItem(atPath: killed, toPath: clean)

    let process = Process()
    process.executableURL = RepositoryPaths.executable
    process.arguments = ["ingest", "--db", killed, log]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    var reader = Configuration()
    reader.readonly = true
    reader.busyMode = .timeout(10)
    let watch = try DatabaseQueue(path: killed, configuration: reader)
    // Killed once the first batch has committed: the old table has lost rows.
    while process.isRunning, (try? Self.toConvert(watch)).flatMap({ $0 }).map({ $0 == total }) ?? true {
      usleep(1_000)
    }
    try #require(process.isRunning, "the conversion finished before it could be killed")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    try watch.close()

    // Some batches are in blocks, whole; the rest is still to convert; nothing is in both.
    let left = try #require(try Self.toConvert(DatabaseQueue(path: killed)))
    #expect(left > 0 && left < total)
    let converted = try DatabaseQueue(path: killed).read { db in
      (
        keys: try Int.fetchOne(db, sql: "SELECT count(*) FROM event_keys") ?? 0,
        inBlocks: try Int.fetchOne(db, sql: "SELECT sum(lines) FROM event_blocks") ?? 0,
        blocks: try Row.fetchAll(db, sql: "SELECT * FROM event_blocks ORDER BY block_id").map(\.description),
        twice: try Int.fetchOne(
          db, sql: "SELECT count(*) FROM events_to_convert JOIN event_keys USING (id_hash)") ?? -1
      )
    }
    #expect(converted.keys == total - left && converted.inBlocks == converted.keys && converted.twice == 0)
    // Read-only commands refuse the half-converted file and say what to do.
    let report = try CommandRun.pullparity(["report", "--db", killed])
    #expect(report.exitCode == 2)
    #expect(report.stderr.contains("interrupted with \(left) events still to convert"), "\(report.stderr)")

    // The log again, under another name so that its lines are read and not skipped chunk by
    // chunk: the write converts only what was left, then finds every event stored already, also
    // those whose rows it has just converted. The fresh file and an uninterrupted conversion of
    // the older file get the same ingest.
    let copy = dir.path("again.jsonl")
    try FileManager.default.copyItem(atPath: log, toPath: copy)
    let again = try CommandRun.pullparity(["ingest", "--db", killed, copy])
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(
      again.stderr.contains("\(left) events left of \(total); \(total - left) were converted by an interrupted run"),
      "\(again.stderr)")
    #expect(again.stderr.contains("Converted \(left) events in "), "\(again.stderr)")
    let cleanRun = try CommandRun.pullparity(["ingest", "--db", clean, copy])
    #expect(cleanRun.exitCode == 0, "\(cleanRun.stderr)")
    #expect(cleanRun.stderr.contains("Converted \(total) events in "), "\(cleanRun.stderr)")
    #expect(try Self.ingest([copy], fresh).exitCode == 0)
    for path in [killed, clean, fresh] {
      let run = try DatabaseQueue(path: path).read { db in
        try Row.fetchOne(db, sql: "SELECT events_stored, duplicates FROM ingest_runs ORDER BY run_id DESC LIMIT 1")
      }
      #expect(run?["events_stored"] == 0, "\(path): \(String(describing: run))")
      #expect(run?["duplicates"] as Int? ?? 0 >= total, "\(path): \(String(describing: run))")
    }

    // The blocks written before the kill were not written again, and the file's blocks and keys
    // are those of the conversion never interrupted.
    let content = try [killed, clean].map { path in
      try DatabaseQueue(path: path).read { db in
        [
          try Row.fetchAll(db, sql: "SELECT * FROM event_blocks ORDER BY block_id").map(\.description),
          try Row.fetchAll(db, sql: "SELECT * FROM event_keys ORDER BY id_hash").map(\.description),
          try Row.fetchAll(db, sql: "SELECT * FROM session_blocks ORDER BY session_ref, block_id").map(\.description),
          try Row.fetchAll(db, sql: "SELECT * FROM labelled_sessions ORDER BY session_ref").map(\.description),
        ]
      }
    }
    #expect(Array(content[0][0].prefix(converted.blocks.count)) == converted.blocks)
    #expect(content[0] == content[1])
    #expect(try DatabaseQueue(path: killed).read { try !$0.tableExists("events_to_convert") })

    // Every stored line, byte for byte with where it was read; derived again from those lines,
    // the same sessions, reports and traces as the fresh ingest's.
    for path in [killed, fresh] { #expect(try CommandRun.pullparity(["replay", "--db", path]).exitCode == 0) }
    let session = try #require(
      try DatabaseQueue(path: fresh).read {
        try String.fetchOne($0, sql: "SELECT session_id FROM sessions ORDER BY session_ref LIMIT 1 OFFSET 100")
      })
    for arguments in [
      ["export", "--with-origin"], ["report", "--format", "json"], ["qa", "--format", "json"], ["session", session],
    ] {
      // The same exit status (`qa` fails on the generated log's failures), the same output
      // but for the time it was generated.
      let outputs = try [killed, fresh].map { path in
        let run = try CommandRun.pullparity([arguments[0], "--db", path] + arguments.dropFirst())
        #expect([0, 1].contains(run.exitCode), "\(arguments): \(run.stderr)")
        return "exit \(run.exitCode)\n"
          + run.stdout.replacingOccurrences(of: path, with: "DB").split(separator: "\n")
          .filter { !$0.contains(#""generated_at""#) }.joined(separator: "\n")
      }
      #expect(outputs[0] == outputs[1], "\(arguments)")
      #expect(!outputs[0].isEmpty)
    }
    let exported = try CommandRun.pullparity(["export", "--db", killed]).stdout
    #expect(exported.split(separator: "\n").count == total)
  }

  /// The events still to convert; nil once the table is gone (or before the migration made it).
  static func toConvert(_ queue: DatabaseQueue) throws -> Int? {
    // Not `tableExists`: GRDB would keep the answer of a read before the migration made it.
    try queue.read { db in
      let exists = "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'events_to_convert')"
      return try Bool.fetchOne(db, sql: exists) == true
        ? try Int.fetchOne(db, sql: "SELECT count(*) FROM events_to_convert") : nil
    }
  }
}
