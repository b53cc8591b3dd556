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
      // The standard library's search, not Foundation's `range(of:)`, which bridges every line
      // to an NSString: most of the conversion test's own time on 150,000 lines.
      let marker = try #require(line.firstRange(of: #","event":"#))
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
    var files: [String: (bytes: Data, lineStarts: [Int])] = [:]
    for line in lines {
      let file = try files[line.source] ?? Self.withLineStarts(Self.decompressed(line.source))
      files[line.source] = file
      let bytes = Data(line.raw.utf8)
      #expect(file.bytes[line.offset..<(line.offset + bytes.count)] == bytes, "\(line.source):\(line.line)")
      let start = file.lineStarts.indices.contains(line.line - 1) ? file.lineStarts[line.line - 1] : nil
      #expect(start == line.offset, "\(line.source):\(line.line)")
    }
    // Without --with-origin: the same lines, bare.
    let bare = try CommandRun.pullparity(["export", "--db", db])
    #expect(bare.stdout.split(separator: "\n").map(String.init) == lines.map { String($0.raw) })
  }

  /// A file's bytes and the offset each of its lines starts at (line n at `lineStarts[n - 1]`):
  /// counting the newlines before every line instead took minutes on the sample logs.
  static func withLineStarts(_ bytes: Data) -> (bytes: Data, lineStarts: [Int]) {
    var starts = [bytes.startIndex]
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
    return (bytes, starts)
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
    // Filters that match nothing: exit 2 with a message, never an empty success (#39).
    let none = try CommandRun.pullparity(["export", "--db", db, "--app", "padel", "--platform", "ios"])
    #expect(none.exitCode == 2 && none.stdout.isEmpty)
    #expect(none.stderr.contains("no stored event matches the filters"))
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

  // MARK: - Retention

  /// One stored line as `StoredEventReader` reads it: where it came from and where it is kept.
  struct Stored: Hashable {
    var ref: Int64
    var timestamp: Double
    var source: String
    var line: Int
    var offset: Int
    var raw: String
    var block: Int64
    var slot: Int

    /// The line without where it is kept: what a rewrite must not change.
    var origin: [String] { ["\(ref)", "\(timestamp)", source, "\(line)", "\(offset)", raw] }
  }

  static func stored(_ database: PullParityDatabase) throws -> [Stored] {
    try database.read { db in
      var lines: [Stored] = []
      try StoredEventReader.forEach(RawEventSelection(), in: db) {
        lines.append(
          Stored(
            ref: $0.info.sessionRef, timestamp: $0.info.timestamp, source: $0.info.sourceName, line: $0.info.line,
            offset: $0.info.byteOffset, raw: String(decoding: $0.raw, as: UTF8.self), block: $0.blockID,
            slot: $0.slot))
      }
      return lines
    }
  }

  static func ms(_ rfc3339: String) throws -> Double {
    try #require(ISO8601DateFormatter().date(from: rfc3339)).timeIntervalSince1970 * 1000
  }

  /// Where `retain --before` cuts the sample log: at a midnight (no session spans it) or in the
  /// middle of a session of the middle day (that session spans it and is kept whole).
  struct RetentionCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// The date given, from each session's first and last event time.
    var before: @Sendable ([Int64: (first: Double, last: Double)]) throws -> Double
    var testDescription: String { name }
  }

  static let retentionCases = [
    RetentionCase(name: "at midnight") { _ in try RawEventStorageTests.ms("2026-11-18T00:00:00Z") },
    RetentionCase(name: "inside a session") { spans in
      let day = try RawEventStorageTests.ms("2026-11-18T00:00:00Z")
      let spanning = try #require(
        spans.values.filter { $0.first >= day && $0.last - $0.first >= 2 }.min { $0.first < $1.first })
      return ((spanning.first + spanning.last) / 2).rounded(.down)
    },
  ]

  /// The sample log ingested in one run (so a block holds sessions of several days) and
  /// retained at a date: exactly the sessions all older than it lose their lines, every other
  /// line stays byte for byte where it was read, and nothing derived, quarantined or counted
  /// changes, through `retain` run twice, `replay` and the same log ingested again.
  @Test(arguments: retentionCases)
  func retainDropsExactlyTheSessionsAllOlderThanTheDate(_ retention: RetentionCase) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("retain.sqlite")
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path], db).exitCode == 0)
    let database = try PullParityDatabase(path: db, readOnly: true)
    let before = try Self.stored(database)
    var spans: [Int64: (first: Double, last: Double)] = [:]
    for line in before {
      let span = spans[line.ref] ?? (line.timestamp, line.timestamp)
      spans[line.ref] = (min(span.first, line.timestamp), max(span.last, line.timestamp))
    }
    let beforeMs = try retention.before(spans)
    let date = Self.rfc3339(beforeMs)
    let dropped = Set(spans.filter { $0.value.last < beforeMs }.keys)
    let spanning = spans.filter { $0.value.first < beforeMs && $0.value.last >= beforeMs }.keys
    try #require(!dropped.isEmpty && dropped.count < spans.count)
    // Blocks mix days: some must be rewritten, not dropped whole.
    let straddling = try database.read {
      try Int.fetchOne(
        $0, sql: "SELECT count(*) FROM event_blocks WHERE first_ts_ms < ? AND last_ts_ms >= ?",
        arguments: [beforeMs, beforeMs])
    }
    try #require((straddling ?? 0) > 0)
    let kept = ["sessions", "violations", "quarantine"]
    let derived = try DatabaseDump.all(database, only: Set(kept))
    let runs = try DatabaseDump.rows(database, table: "ingest_runs", order: "run_id")
    let keys = try DatabaseDump.count(database, "event_keys")
    /// The report and the QA checklist, but for when they were generated.
    func outputs() throws -> [[Substring]] {
      try [["report", "--db", db, "--format", "json"], ["qa", "--db", db, "--format", "json"]].map {
        try CommandRun.pullparity($0).stdout.split(separator: "\n").filter { !$0.contains(#""generated_at""#) }
      }
    }
    let reports = try outputs()
    func expectNothingDerivedChanged(_ moment: Comment) throws {
      #expect(try DatabaseDump.all(database, only: Set(kept)) == derived, moment)
      #expect(try outputs() == reports, moment)
    }

    let retain = try CommandRun.pullparity(["retain", "--db", db, "--before", date])
    #expect(retain.exitCode == 0, "\(retain.stderr)")
    let record = try #require(try database.read { try RawRetention.records($0) }.first)
    let droppedLines = before.filter { dropped.contains($0.ref) }
    #expect(record.events == droppedLines.count)
    #expect(record.sessions == dropped.count)
    #expect(record.blocksRewritten > 0 && record.bytes > 0)
    #expect(record.beforeMs == beforeMs)
    #expect(retain.stdout.contains("Dropped the \(record.events.formatted()) raw events of \(dropped.count) sessions"))

    // Exactly the lines of the sessions kept, each as it was read; the spanning ones whole.
    let after = try Self.stored(database)
    #expect(
      Set(after.map(\.origin)) == Set(before.filter { !dropped.contains($0.ref) }.map(\.origin))
        && after.count == before.count - droppedLines.count)
    #expect(after.allSatisfy { !dropped.contains($0.ref) })
    for ref in spanning { #expect(after.count { $0.ref == ref } == before.count { $0.ref == ref }) }
    // Every key stays; those of kept lines name their new block and slot.
    #expect(try DatabaseDump.count(database, "event_keys") == keys)
    let places = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT block_id, slot FROM event_keys JOIN event_blocks USING (block_id)")
        .map { "\($0["block_id"] as Int64)/\($0["slot"] as Int)" }
    }
    #expect(Set(places) == Set(after.map { "\($0.block)/\($0.slot)" }) && places.count == after.count)
    let (marked, listed) = try database.read { db in
      (
        Set(try Int64.fetchAll(db, sql: "SELECT session_ref FROM sessions_without_raw WHERE retention_id = 1")),
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM session_blocks JOIN event_blocks USING (block_id)
            WHERE session_ref IN (SELECT session_ref FROM sessions_without_raw)
            """)
      )
    }
    #expect(marked == dropped && listed == 0)
    try expectNothingDerivedChanged("after retain")
    #expect(try DatabaseDump.rows(database, table: "ingest_runs", order: "run_id") == runs)
    let list = try CommandRun.pullparity(["retain", "--db", db, "--list"]).stdout
    #expect(list.contains(RetentionRecord.time(beforeMs)) && list.contains(record.retainedAt), "\(list)")

    // `session` names the run; a kept session, spanning the date or not, is still there.
    let (droppedID, keptID) = try database.read { db in
      (
        try String.fetchOne(
          db, sql: "SELECT session_id FROM sessions WHERE session_ref = ?", arguments: [dropped.min()]),
        try String.fetchOne(
          db, sql: "SELECT session_id FROM sessions WHERE session_ref = ?",
          arguments: [spanning.min() ?? after[0].ref])
      )
    }
    let session = try CommandRun.pullparity(["session", "--db", db, try #require(droppedID)])
    #expect(session.exitCode == 2)
    #expect(
      session.stderr.contains(
        "can no longer be derived again: its raw events were dropped by retention run 1 on \(record.retainedAt)"),
      "\(session.stderr)")
    #expect(try CommandRun.pullparity(["session", "--db", db, try #require(keptID)]).exitCode == 0)

    // Run again, retain finds nothing and records nothing.
    let again = try CommandRun.pullparity(["retain", "--db", db, "--before", date])
    #expect(again.exitCode == 0 && again.stdout.contains("nothing was dropped"), "\(again.stdout)")
    #expect(try database.read { try RawRetention.records($0) } == [record])
    #expect(try Self.stored(database) == after)

    // Replay keeps the rows of the sessions it cannot rebuild, and says how many.
    let replay = try CommandRun.pullparity(["replay", "--db", db])
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.contains("Kept as stored: \(dropped.count) sessions whose raw events"), "\(replay.stdout)")
    #expect(replay.stdout.contains("Changed: 0 sessions") && replay.stdout.contains("gone: 0"), "\(replay.stdout)")
    try expectNothingDerivedChanged("after replay")

    // The same log again, as it was (its chunks are known) and copied under other names (every
    // line goes through the duplicate check): every event a duplicate, nothing stored or derived.
    let copy = dir.path("copy")
    try FileManager.default.copyItem(atPath: RepositoryPaths.sampleEvents.path, toPath: copy)
    for input in [RepositoryPaths.sampleEvents.path, copy] {
      #expect(try Self.ingest([input], db).exitCode == 0)
      let stored = try database.read {
        try Int.fetchOne($0, sql: "SELECT events_stored + conflicts FROM ingest_runs ORDER BY run_id DESC LIMIT 1")
      }
      #expect(stored == 0, "\(input)")
      try expectNothingDerivedChanged("after ingesting \(input) again")
      #expect(try Self.stored(database).map(\.origin) == after.map(\.origin))
    }
  }

  /// However small its transactions, a run drops the same lines and says so in one row.
  @Test(arguments: [1, 2, RawRetention.blocksPerTransaction])
  func retainInSmallerTransactionsDropsTheSame(blocksPerTransaction: Int) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("batches.sqlite")
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path], db).exitCode == 0)
    let database = try PullParityDatabase(path: db)
    let day = try Self.ms("2026-11-18T00:00:00Z")
    let before = try Self.stored(database)
    let dropped = Set(before.filter { $0.timestamp < day }.map(\.ref))
      .subtracting(before.filter { $0.timestamp >= day }.map(\.ref))
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let record = try #require(
      try RawRetention.drop(before: day, in: database, at: now, blocksPerTransaction: blocksPerTransaction))
    #expect(record.retentionID == 1 && record.retainedAt == ISO8601DateFormatter().string(from: now))
    #expect(record.sessions == dropped.count && record.events == before.count { dropped.contains($0.ref) })
    #expect(record.blocksRewritten > 0)
    let after = try Self.stored(database)
    #expect(Set(after.map(\.origin)) == Set(before.filter { !dropped.contains($0.ref) }.map(\.origin)))
    #expect(try RawRetention.drop(before: day, in: database, at: Date()) == nil)
    #expect(try database.read { try RawRetention.records($0) } == [record])
  }

  /// `retain` moves the key of each line it keeps from a rewritten block: it finds the key as
  /// ingest's duplicate check does, from the id (random ids: by key epoch; UUIDv7: by time),
  /// without reading the whole table.
  @Test func everyStoredLineIsFoundByItsKey() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("keys.sqlite")
    // UUIDv7 ids besides the sample's random ones.
    let timed = (0..<300).map { i in
      let id = String(format: "019a8b2c-%04x-7%03x-8%03x-%012x", i, i % 4096, i % 4096, i)
      return #"{"event_id":"\#(id)","session_id":"v7-\#(i / 10)","ts":\#(1_795_000_000_000 + i),"#
        + #""platform":"ios","app":"padel","type":"pull_start"}"#
    }
    let v7 = try dir.write("v7.jsonl", timed.joined(separator: "\n") + "\n")
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path, v7], db).exitCode == 0)
    let database = try PullParityDatabase(path: db)
    try database.write { db in
      let finder = try KeyFinder(db, blocks: [])
      var keys = Set<Int64>()
      var timeOrdered = 0
      try StoredEventReader.forEach(RawEventSelection(), in: db) { line in
        keys.insert(try finder.key(of: line.eventID, block: line.blockID, slot: line.slot))
        if EventKey.isTimeOrdered(line.eventID) { timeOrdered += 1 }
      }
      #expect(!finder.scannedTable && timeOrdered == timed.count)
      #expect(keys.count == (try Int.fetchOne(db, sql: "SELECT count(*) FROM event_keys")))
    }
  }

  /// The pages `retain` frees go to the next ingest: it grows the file by what it stores less
  /// what was freed, as far as a file vacuumed after the same `retain` grows by all it stores.
  @Test func anIngestAfterRetainReusesTheFreedPages() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("reuse.sqlite")
    let vacuumed = dir.path("vacuumed.sqlite")
    #expect(try Self.ingest([RepositoryPaths.sampleEvents.path], db).exitCode == 0)
    let database = try PullParityDatabase(path: db, readOnly: true)
    let day = try Self.ms("2026-11-18T00:00:00Z")
    // New events as many and as large as those dropped: the dropped lines with other ids.
    let fresh = try Self.stored(database).filter { $0.timestamp < day }.map {
      $0.raw.replacing(#""event_id":""#, with: #""event_id":"n"#)
        .replacing(#""session_id":""#, with: #""session_id":"n"#)
    }
    let input = try dir.write("fresh.jsonl", fresh.joined(separator: "\n") + "\n")
    try FileManager.default.copyItem(atPath: db, toPath: vacuumed)
    #expect(try CommandRun.pullparity(["retain", "--db", db, "--before", "2026-11-18"]).exitCode == 0)
    let vacuum = try CommandRun.pullparity(["retain", "--db", vacuumed, "--before", "2026-11-18", "--vacuum"])
    #expect(vacuum.stdout.contains("given back to the file system"), "\(vacuum.stdout)")
    let record = try #require(try database.read { try RawRetention.records($0) }.first)
    #expect(fresh.count == record.events)
    func pages(_ path: String) throws -> (total: Int, free: Int) {
      try PullParityDatabase(path: path, readOnly: true).read {
        (try Int.fetchOne($0, sql: "PRAGMA page_count")!, try Int.fetchOne($0, sql: "PRAGMA freelist_count")!)
      }
    }
    let (freed, vacuumedBefore) = (try pages(db), try pages(vacuumed))
    let pageSize = try database.read { try Int.fetchOne($0, sql: "PRAGMA page_size")! }
    #expect(vacuumedBefore.free == 0 && freed.free * pageSize >= record.bytes)
    for path in [db, vacuumed] { #expect(try Self.ingest([input], path).exitCode == 0) }
    let (reused, vacuumedAfter) = (try pages(db), try pages(vacuumed))
    #expect(reused.free < freed.free)
    // The file grows by what the ingest stores less what was freed; without the freed pages
    // (the vacuumed copy) by all of it.
    let (grown, needed) = (reused.total - freed.total, vacuumedAfter.total - vacuumedBefore.total)
    #expect(grown * pageSize <= needed * pageSize - record.bytes / 2, "grew \(grown) pages, vacuumed \(needed)")
  }

  // MARK: - Upgrading a file of schema version 9

  /// The fewest events whose conversion says what it does (`ConversionProgressDisplay.noticeEvents`).
  static let upgradeEvents = 100_000

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
    // 100,000 events: the conversion says what it does.
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
    let log = try CrashSafetyTests.mixedLog(in: dir, events: 100_000)
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
        // Every column but schema 14's checksum, which a block converted before it lacks.
        blocks: try DatabaseDump.text(
          db, table: "event_blocks", columns: "block_id, run_id, lines, first_ts_ms, last_ts_ms, raw_bytes, data",
          order: "block_id"
        ).text,
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
          // Every column but schema 14's checksum, which a block converted before it lacks.
          try DatabaseDump.text(
            db, table: "event_blocks", columns: "block_id, run_id, lines, first_ts_ms, last_ts_ms, raw_bytes, data",
            order: "block_id"),
          try DatabaseDump.text(db, table: "event_keys", order: "id_hash"),
          try DatabaseDump.text(db, table: "session_blocks", order: "session_ref, block_id"),
          try DatabaseDump.text(db, table: "labelled_sessions", order: "session_ref"),
        ]
      }
    }
    // The blocks converted before the kill are the first blocks, unchanged.
    #expect(content[0][0].text == converted.blocks || content[0][0].text.hasPrefix(converted.blocks + "\n"))
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
