import Dispatch
internal import GRDB
import Synchronization

/// Fills blocks of raw lines and writes each, with the sessions it holds, once it is full or
/// when told to (`flush`, before the transaction commits and before a session's lines are
/// read back).
///
/// A full block is encoded and compressed beside the writer, on a thread of its own, while the
/// next one fills; its row is written when the next block is full, or at `flush` or `settle`.
/// zstd was 0.4–0.6 s of the ingest writer's 3.5 s for a million events, encoding 5 % of it,
/// and the writer is the thread ingest waits for (docs/performance.md, "Random ids"). Only the
/// database connection's thread writes: the other thread sees the block's lines alone.
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
  /// The full block being compressed, whose row is not written yet.
  private var sealed: SealedBlock?

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
    if builder.isFull { try seal() }
  }

  /// Writes every block with lines: the one being compressed and the one being filled.
  func flush() throws {
    try seal()
    try settle()
  }

  /// Writes the block being compressed, if there is one, once it is: call before reading a
  /// block of this writer's from the file.
  func settle() throws {
    guard let block = sealed else { return }
    sealed = nil
    let (packed, rawBytes) = try block.compression.wait()
    insertBlock.bind(1, block.id)
    insertBlock.bind(2, block.runID.map { Int($0) })
    insertBlock.bind(3, block.lines)
    insertBlock.bind(4, block.timeRange.first)
    insertBlock.bind(5, block.timeRange.last)
    insertBlock.bind(6, rawBytes)
    packed.withUnsafeBytes {
      insertBlock.bind(7, bytes: $0, asBlob: true)
      if hasChecksum { insertBlock.bind(8, BlockChecksum.of($0)) }
    }
    try insertBlock.execute("writing raw event block \(block.id)")
    for ref in block.sessions {
      insertSessionBlock.bind(1, ref)
      insertSessionBlock.bind(2, block.id)
      try insertSessionBlock.execute("recording the sessions of raw event block \(block.id)")
    }
  }

  /// Hands the block being filled, if it has lines, to be compressed (after writing the one
  /// handed before), and starts the next.
  private func seal() throws {
    guard !builder.isEmpty else { return }
    try settle()
    var sessions: [Int64] = []
    for ref in builder.lines.lazy.map(\.sessionRef) where ref != sessions.last { sessions.append(ref) }
    sealed = SealedBlock(
      id: blockID, runID: runID, lines: builder.count, timeRange: builder.timeRange, sessions: sessions,
      compression: BlockCompression(builder))
    // The block's arrays now belong to the compression: the next block fills new ones.
    builder.removeAll()
    blockID += 1
  }
}

/// A full block's row, but for its bytes, which are being compressed.
private struct SealedBlock {
  let id: Int64
  let runID: Int64?
  let lines: Int
  let timeRange: (first: Double, last: Double)
  /// Its sessions, each once per run of their lines.
  let sessions: [Int64]
  let compression: BlockCompression
}

/// One block's encoding and compression on a thread of Dispatch's pool: started at once,
/// waited for once.
private final class BlockCompression: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let result = Mutex<Result<(packed: [UInt8], rawBytes: Int), any Error>?>(nil)

  init(_ block: RawBlockBuilder) {
    DispatchQueue.global().async { [self] in
      let plain = block.encoded()
      let packed = Result { (packed: try plain.withUnsafeBytes { try Zstd.compress($0) }, rawBytes: plain.count) }
      result.withLock { $0 = packed }
      done.signal()
    }
  }

  /// The compressed bytes and the size they decompress to, once they are; the compression's
  /// error if it failed.
  func wait() throws -> (packed: [UInt8], rawBytes: Int) {
    done.wait()
    return try result.withLock { $0! }.get()
  }
}
