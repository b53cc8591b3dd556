internal import GRDB

/// Fills blocks of raw lines and writes each, with the sessions it holds, once it is full or
/// when told to (`flush`, before the transaction commits and before a session's lines are
/// read back).
final class RawBlockWriter {
  private let db: Database
  private let insertBlock: RawStatement
  private let insertSessionBlock: RawStatement
  private let hasChecksum: Bool
  private(set) var builder = RawBlockBuilder()
  /// The id the block being filled will have.
  private(set) var blockID: Int64
  /// The run that the blocks are written by (`event_blocks.run_id`).
  var runID: Int64?

  init(_ db: Database, runID: Int64? = nil) throws {
    self.db = db
    self.runID = runID
    // The conversion of a file older than schema 11 writes its blocks before version 14 adds
    // the column: those blocks have no checksum, as the blocks of a version 11-12 file.
    hasChecksum = try db.columns(in: "event_blocks").contains { $0.name == "checksum" }
    insertBlock = try RawStatement(
      db,
      hasChecksum
        ? """
        INSERT INTO event_blocks (block_id, run_id, lines, first_ts_ms, last_ts_ms, raw_bytes, data, checksum)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
        : """
        INSERT INTO event_blocks (block_id, run_id, lines, first_ts_ms, last_ts_ms, raw_bytes, data)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
    insertSessionBlock = try RawStatement(
      db, "INSERT OR IGNORE INTO session_blocks (session_ref, block_id) VALUES (?, ?)")
    // AUTOINCREMENT's counter: an id stays taken after `retain` drops its block.
    let last = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'event_blocks'") ?? 0
    blockID = last + 1
  }

  /// Where the next line appended will be: (block, slot).
  var nextPlace: (block: Int64, slot: Int) { (blockID, builder.count) }

  func append(_ line: RawLine, eventID: UnsafeRawBufferPointer, raw: UnsafeRawBufferPointer) throws {
    builder.append(line, eventID: eventID, raw: raw)
    if builder.isFull { try flush() }
  }

  /// Writes the block being filled, if it has lines.
  func flush() throws {
    guard !builder.isEmpty else { return }
    let plain = builder.encoded()
    let packed = try plain.withUnsafeBytes { try Zstd.compress($0) }
    let (first, last) = builder.timeRange
    insertBlock.bind(1, blockID)
    insertBlock.bind(2, runID.map { Int($0) })
    insertBlock.bind(3, builder.count)
    insertBlock.bind(4, first)
    insertBlock.bind(5, last)
    insertBlock.bind(6, plain.count)
    packed.withUnsafeBytes {
      insertBlock.bind(7, bytes: $0, asBlob: true)
      if hasChecksum { insertBlock.bind(8, BlockChecksum.of($0)) }
    }
    try insertBlock.execute("writing raw event block \(blockID)")
    var previous: Int64?
    for ref in builder.lines.lazy.map(\.sessionRef) where ref != previous {
      previous = ref
      insertSessionBlock.bind(1, ref)
      insertSessionBlock.bind(2, blockID)
      try insertSessionBlock.execute("recording the sessions of raw event block \(blockID)")
    }
    builder.removeAll()
    blockID += 1
  }
}
