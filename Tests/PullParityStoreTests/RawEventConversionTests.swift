import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// The conversion of an older file's events into blocks (schema version 11), batch by batch:
/// each batch moves whole blocks' worth of rows and deletes them, a batch that does not commit
/// changes nothing, and the blocks are those of a conversion in one go.
@Suite struct RawEventConversionTests {
  static let events = 30_000

  /// A schema version 10 file of `events` rows, migrated by the SQL of version 11 alone: every
  /// row still to convert, as a write killed before its first batch leaves it.
  static func halfConverted(_ path: String) throws -> DatabaseQueue {
    let queue = try OldSchemaFile.create(path, version: 10)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO sources (source_id, name) VALUES (1, 'old.jsonl')")
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO events (event_id, id_hash, session_id, session_ref, ts_ms, platform, app, type, source_id,
                              line, byte_offset, raw)
          VALUES (?, ?, ?, ?, ?, 'ios', 'padel', ?, 1, ?, ?, ?)
          """)
      for i in 0..<events {
        let type = i % 40 == 0 ? "label" : "pull_start"
        let raw =
          #"{"event_id":"e\#(i)","session_id":"s\#(i / 20)","ts":\#(1_795_000_000_000 + i),"type":"\#(type)"}"#
        try insert.execute(arguments: [
          "e\(i)", EventKey.of("e\(i)"), "s\(i / 20)", i / 20 + 1, 1_795_000_000_000 + i, type, i + 1, i * 100, raw,
        ])
      }
    }
    try OldSchemaFile.upgrade(queue, to: 11)
    return queue
  }

  static func count(_ queue: DatabaseQueue, _ sql: String) throws -> Int {
    try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
  }

  static func content(_ queue: DatabaseQueue) throws -> [[String]] {
    try queue.read { db in
      [
        // Every column but schema 14's checksum, which a block converted before it lacks.
        try Row.fetchAll(
          db,
          sql:
            "SELECT block_id, run_id, lines, first_ts_ms, last_ts_ms, raw_bytes, data FROM event_blocks ORDER BY block_id"
        ).map(\.description),
        try Row.fetchAll(db, sql: "SELECT * FROM event_keys ORDER BY id_hash").map(\.description),
        try Row.fetchAll(db, sql: "SELECT * FROM session_blocks ORDER BY session_ref, block_id").map(\.description),
        try Row.fetchAll(db, sql: "SELECT * FROM labelled_sessions ORDER BY session_ref").map(\.description),
      ]
    }
  }

  @Test func eachBatchMovesWholeBlocksAndDeletesTheRowsItMoved() throws {
    let dir = try TemporaryDirectory()
    let queue = try Self.halfConverted(dir.path("batches.sqlite"))
    #expect(try Self.count(queue, "SELECT count(*) FROM events_to_convert") == Self.events)
    #expect(try Self.count(queue, "SELECT count(*) FROM sqlite_master WHERE name IN ('events', 'session_spans')") == 0)

    // A batch whose transaction does not commit (a kill) leaves the file as it was.
    struct Killed: Error {}
    #expect(throws: Killed.self) {
      try queue.write { db in
        #expect(try RawEventConversion.convertBatch(db, blocks: 2).moved > 0)
        throw Killed()
      }
    }
    #expect(try Self.count(queue, "SELECT count(*) FROM event_keys") == 0)
    #expect(try Self.count(queue, "SELECT count(*) FROM events_to_convert") == Self.events)

    var batches: [(moved: Int, left: Int, blocks: Int)] = []
    var finished = false
    while !finished {
      let batch = try queue.write { db in try RawEventConversion.convertBatch(db, blocks: 2) }
      finished = batch.finished
      let left = finished ? 0 : try Self.count(queue, "SELECT count(*) FROM events_to_convert")
      batches.append((batch.moved, left, try Self.count(queue, "SELECT count(*) FROM event_blocks")))
      // What was moved is in blocks, once, and no longer in the old table.
      #expect(try Self.count(queue, "SELECT count(*) FROM event_keys") == Self.events - left)
      #expect(try Self.count(queue, "SELECT coalesce(sum(lines), 0) FROM event_blocks") == Self.events - left)
    }
    #expect(batches.count > 3, "\(batches)")
    // Every batch but the last wrote two full blocks.
    #expect(batches.dropLast().allSatisfy { $0.blocks % 2 == 0 }, "\(batches)")
    #expect(batches.map(\.moved).reduce(0, +) == Self.events)
    #expect(try !queue.read { try $0.tableExists("events_to_convert") })

    // The same file converted by the program in one write: the same blocks, keys and sessions.
    let oneGo = dir.path("one-go.sqlite")
    _ = try Self.halfConverted(oneGo)
    _ = try PullParityDatabase(path: oneGo)
    #expect(try Self.content(queue) == Self.content(DatabaseQueue(path: oneGo)))
    #expect(try Self.count(queue, "SELECT count(*) FROM labelled_sessions") == Self.events / 40)
  }

  @Test func aReadOnlyOpenRefusesAHalfConvertedFileAndAWriteFinishesIt() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("half.sqlite")
    let queue = try Self.halfConverted(path)
    _ = try queue.write { db in try RawEventConversion.convertBatch(db, blocks: 3) }
    let left = try Self.count(queue, "SELECT count(*) FROM events_to_convert")
    #expect(left > 0 && left < Self.events)
    try queue.close()
    let refusal = #expect(throws: StoreError.self) { try PullParityDatabase(path: path, readOnly: true) }
    #expect(refusal?.description.contains("interrupted with \(left) events still to convert") == true)

    var seen: [RawEventConversion.Progress] = []
    let database = try PullParityDatabase(path: path, conversionProgress: { seen.append($0) })
    #expect(seen.first?.convertedBefore == Self.events - left)
    #expect(seen.first?.total == Self.events)
    #expect(seen.last?.finished == true && seen.last?.converted == Self.events)
    #expect(try DatabaseDump.count(database, "event_keys") == Self.events)
    _ = try PullParityDatabase(path: path, readOnly: true)
  }
}
