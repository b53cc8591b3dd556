internal import Foundation
package import GRDB

/// What schema version 11 (`0011_compressed_raw_events.sql`) needs from the program: every row
/// of the older `events` table moved into blocks, batch by batch, each batch committed on its
/// own.
///
/// The migration itself (one transaction) creates the new tables and renames `events` to
/// `events_to_convert`; every write then finishes the conversion before anything else
/// (`finish`). A batch reads rows in `event_pk` order (ingest wrote them chunk by chunk, session
/// by session within a chunk, so the blocks keep a session's lines together as an ingest
/// would), writes them as full blocks with their keys and sessions, and deletes the rows it
/// wrote, all in one transaction: a kill (even `kill -9`) loses at most the batch in flight, and
/// the next write goes on from the first row left. A batch ends only where a block is full, so
/// the blocks are the same, byte for byte, however often the conversion was interrupted. The
/// batch that empties the table drops it: a file without `events_to_convert` is fully at
/// version 11, and until then a read-only command refuses it (`SchemaVersionCheck`).
package enum RawEventConversion {
  static let name = "0011_compressed_raw_events"
  /// The rows still to convert; the table is gone once they all are.
  package static let pendingTable = "events_to_convert"
  /// Full blocks per batch: with 512 KiB blocks of ~290-byte lines, about 29,000 events and
  /// 8 MiB of lines, a tenth of a second or so of work between commits.
  package static let defaultBlocksPerBatch = 16

  static func run(_ db: Database, sql: String) throws {
    try db.execute(sql: sql)
    // A file without events (a new one) has nothing to convert.
    if try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(pendingTable))")! {
      try db.execute(sql: "DROP TABLE \(pendingTable)")
    }
  }

  /// Whether the file still has events to convert.
  package static func isPending(_ db: Database) throws -> Bool {
    try db.tableExists(pendingTable)
  }

  /// How far a conversion is, for a progress display.
  package struct Progress: Sendable {
    /// Events in blocks, by this run and by earlier interrupted ones.
    package var converted: Int
    /// Of those, converted by earlier runs (a killed write): this run went on from there.
    package var convertedBefore: Int
    /// Every event: converted and still to convert.
    package var total: Int
    package var elapsedSeconds: Double
    package var finished: Bool
  }

  /// Converts what is left in batches, each its own transaction, and drops the emptied table.
  /// Does nothing on a converted file. `progress` is called before the first batch and after
  /// each.
  static func finish(
    _ queue: DatabaseQueue, blocksPerBatch: Int = defaultBlocksPerBatch, progress: ((Progress) -> Void)?
  ) throws {
    let start = ContinuousClock.now
    let counts = try queue.read { db -> (before: Int, left: Int)? in
      guard try isPending(db) else { return nil }
      return (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM event_keys") ?? 0,
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(pendingTable)") ?? 0
      )
    }
    guard let counts else { return }
    var state = Progress(
      converted: counts.before, convertedBefore: counts.before, total: counts.before + counts.left,
      elapsedSeconds: 0, finished: false)
    progress?(state)
    while !state.finished {
      let batch = try queue.write { db in try convertBatch(db, blocks: blocksPerBatch) }
      state.converted += batch.moved
      state.finished = batch.finished
      state.elapsedSeconds = start.secondsAgo
      progress?(state)
    }
  }

  /// One batch, in the caller's transaction: moves the rows of `events_to_convert` that fill
  /// the next `blocks` blocks (or all that are left) into blocks, deletes them, and drops the
  /// table when it is empty. Returns the rows moved and whether the table is gone.
  package static func convertBatch(_ db: Database, blocks limit: Int) throws -> (moved: Int, finished: Bool) {
    guard try isPending(db) else { return (0, true) }
    let blocks = try RawBlockWriter(db)
    let firstBlock = blocks.blockID
    let insertKey = try RawStatement(db, "INSERT INTO event_keys (id_hash, block_id, slot) VALUES (?, ?, ?)")
    let rows = try RawStatement(
      db,
      """
      SELECT event_pk, id_hash, event_id, session_ref, source_id, line, byte_offset, ts_ms, raw
      FROM \(pendingTable) ORDER BY event_pk
      """)
    let columns = [
      "event_pk", "id_hash", "event_id", "session_ref", "source_id", "line", "byte_offset", "ts_ms", "raw",
    ].map(rows.column)
    var moved = 0
    var lastPK: Int64?
    var exhausted = false
    defer { rows.reset() }
    while blocks.blockID - firstBlock < limit {
      guard try rows.step("converting events into blocks") else {
        exhausted = true
        break
      }
      let key = rows.int64(columns[1])
      let (block, slot) = blocks.nextPlace
      insertKey.bind(1, key)
      insertKey.bind(2, block)
      insertKey.bind(3, slot)
      try insertKey.execute("converting event \(key)")
      let line = RawLine(
        sessionRef: rows.int64(columns[3]), sourceID: rows.int64(columns[4]), line: Int(rows.int64(columns[5])),
        byteOffset: Int(rows.int64(columns[6])), timestamp: rows.double(columns[7]))
      try blocks.append(line, eventID: rows.bytes(columns[2]), raw: rows.bytes(columns[8]))
      lastPK = rows.int64(columns[0])
      moved += 1
    }
    rows.reset()
    // Only the last batch writes a block that is not full: the blocks are those of a
    // conversion in one go. Any other ends on a full block, which may be being compressed.
    if exhausted { try blocks.flush() } else { try blocks.settle() }
    if let lastPK {
      try db.execute(sql: "DELETE FROM \(pendingTable) WHERE event_pk <= ?", arguments: [lastPK])
    }
    if exhausted { try db.execute(sql: "DROP TABLE \(pendingTable)") }
    return (moved, exhausted)
  }
}
