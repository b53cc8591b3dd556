internal import GRDB

/// Fills blocks of raw lines and writes each, with the sessions it holds, once it is full or
/// when told to (`flush`, before the transaction commits and before a session's lines are
/// read back).
///
/// A full block is compressed on another thread (`BlockCompression`) while the next one
/// fills, and written when that one is full in turn or at `flush`: compression was a fifth of
/// the writer thread's time, the thread every ingested event waits on (bench/README.md, "The
/// write path at schema 11").
final class RawBlockWriter {
  private let db: Database
  private let insertBlock: RawStatement
  private let insertSessionBlock: RawStatement
  private var builder = RawBlockBuilder()
  /// The id the block being filled will have.
  private(set) var blockID: Int64
  /// The full block being compressed: its id, run, lines and compression.
  private var compressing: (id: Int64, runID: Int64?, builder: RawBlockBuilder, compression: BlockCompression)?
  /// The run that the blocks are written by (`event_blocks.run_id`).
  var runID: Int64?

  init(_ db: Database, runID: Int64? = nil) throws {
    self.db = db
    self.runID = runID
    insertBlock = try RawStatement(
      db,
      """
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

  /// The lines of `block` when it is not written yet (being filled or compressed), else nil.
  func unwritten(_ block: Int64) -> RawBlockBuilder? {
    if block == blockID { return builder }
    if let compressing, compressing.id == block { return compressing.builder }
    return nil
  }

  func append(_ line: RawLine, eventID: UnsafeRawBufferPointer, raw: UnsafeRawBufferPointer) throws {
    builder.append(line, eventID: eventID, raw: raw)
    if builder.isFull { try handOff() }
  }

  /// Writes the block being compressed and the block being filled, if it has lines.
  func flush() throws {
    try writeCompressed()
    guard !builder.isEmpty else { return }
    try write(blockID, runID, builder, packed: try BlockCompression.pack(builder))
    builder.removeAll()
    blockID += 1
  }

  /// Starts compressing the full block and goes on filling a new one (the builder of the block
  /// written before, to reuse its memory).
  private func handOff() throws {
    var spare = try writeCompressed() ?? RawBlockBuilder()
    spare.removeAll()
    compressing = (blockID, runID, builder, BlockCompression(builder))
    builder = spare
    blockID += 1
  }

  /// Waits for the block being compressed and writes it; returns its builder.
  @discardableResult
  private func writeCompressed() throws -> RawBlockBuilder? {
    guard let (id, runID, lines, compression) = compressing else { return nil }
    compressing = nil
    try write(id, runID, lines, packed: try compression.result())
    return lines
  }

  private func write(_ id: Int64, _ runID: Int64?, _ lines: RawBlockBuilder, packed: BlockCompression.Packed) throws {
    let (first, last) = lines.timeRange
    insertBlock.bind(1, id)
    insertBlock.bind(2, runID.map { Int($0) })
    insertBlock.bind(3, lines.count)
    insertBlock.bind(4, first)
    insertBlock.bind(5, last)
    insertBlock.bind(6, packed.plainBytes)
    packed.data.withUnsafeBytes { insertBlock.bind(7, bytes: $0, asBlob: true) }
    try insertBlock.execute("writing raw event block \(id)")
    var previous: Int64?
    for ref in lines.lines.lazy.map(\.sessionRef) where ref != previous {
      previous = ref
      insertSessionBlock.bind(1, ref)
      insertSessionBlock.bind(2, id)
      try insertSessionBlock.execute("recording the sessions of raw event block \(id)")
    }
  }
}
