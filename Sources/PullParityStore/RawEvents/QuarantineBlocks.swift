internal import GRDB

/// Quarantined lines in compressed blocks (schema version 14), one block per ingest transaction
/// or more when a block reaches `RawBlockBuilder`'s limits; `quarantined_lines` holds each
/// line's row, with its block and slot.
///
/// Layout before compression: `PPQ1`, the line count, then per line a varint of its length
/// times two, plus one when the line was stored as a BLOB (not valid UTF-8); then every line.
/// The blob as stored carries an XXH3-64 checksum (`BlockChecksum`).
struct QuarantineBlockBuilder {
  static let magic: [UInt8] = Array("PPQ1".utf8)

  private(set) var count = 0
  private var lengths: [UInt64] = []
  private var raw: [UInt8] = []

  var isEmpty: Bool { count == 0 }
  var isFull: Bool { raw.count >= RawBlockBuilder.targetBytes || count >= RawBlockBuilder.maxLines }

  mutating func append(_ line: UnsafeRawBufferPointer, isBlob: Bool) {
    lengths.append(UInt64(line.count) << 1 | (isBlob ? 1 : 0))
    raw.append(contentsOf: line)
    count += 1
  }

  func encoded() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(raw.count + count * 3 + 8)
    out.append(contentsOf: Self.magic)
    VarInt.append(UInt64(count), to: &out)
    for length in lengths { VarInt.append(length, to: &out) }
    out.append(contentsOf: raw)
    return out
  }

  mutating func removeAll() {
    count = 0
    lengths.removeAll(keepingCapacity: true)
    raw.removeAll(keepingCapacity: true)
  }
}

/// Writes the quarantined lines of one transaction into blocks.
final class QuarantineBlockWriter {
  private let insertBlock: RawStatement
  private var builder = QuarantineBlockBuilder()
  private(set) var blockID: Int64
  private let runID: Int64?

  init(_ db: Database, runID: Int64?) throws {
    self.runID = runID
    insertBlock = try RawStatement(
      db, "INSERT INTO quarantine_blocks (block_id, run_id, lines, raw_bytes, checksum, data) VALUES (?, ?, ?, ?, ?, ?)"
    )
    let last = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'quarantine_blocks'") ?? 0
    blockID = last + 1
  }

  /// Where the next line appended will be: (block, slot).
  var nextPlace: (block: Int64, slot: Int) { (blockID, builder.count) }

  /// `lineRun`: the run that quarantined the line, the block's when the transaction has none.
  func append(_ line: UnsafeRawBufferPointer, isBlob: Bool, runID lineRun: Int64) throws {
    lastRunID = lineRun
    builder.append(line, isBlob: isBlob)
    if builder.isFull { try flush() }
  }

  private var lastRunID: Int64?

  /// Writes the block being filled, if it has lines.
  func flush() throws {
    guard !builder.isEmpty else { return }
    let plain = builder.encoded()
    let packed = try plain.withUnsafeBytes { try Zstd.compress($0) }
    insertBlock.bind(1, blockID)
    insertBlock.bind(2, runID ?? lastRunID ?? 0)
    insertBlock.bind(3, builder.count)
    insertBlock.bind(4, plain.count)
    packed.withUnsafeBytes {
      insertBlock.bind(5, BlockChecksum.of($0))
      insertBlock.bind(6, bytes: $0, asBlob: true)
    }
    try insertBlock.execute("writing quarantine block \(blockID)")
    builder.removeAll()
    blockID += 1
  }
}

/// One quarantine block, checked and decompressed.
struct QuarantineBlock {
  let id: Int64
  private let bytes: [UInt8]
  private var ranges: [(range: Range<Int>, isBlob: Bool)] = []

  init(id: Int64, data: UnsafeRawBufferPointer, rawBytes: Int, checksum: Int64) throws {
    self.id = id
    let name = BlockName(.quarantine, id)
    try BlockChecksum.check(data, stored: checksum, block: name)
    bytes = try Zstd.decompress(data, size: rawBytes, block: name)
    guard bytes.withUnsafeBytes({ parse($0) }) else {
      throw BlockDamage(block: name, problem: "its directory of lines does not hold")
    }
  }

  private mutating func parse(_ b: UnsafeRawBufferPointer) -> Bool {
    guard b.count >= 4, Array(b[0..<4]) == QuarantineBlockBuilder.magic else { return false }
    var at = 4
    guard let count = VarInt.read(b, &at), count <= RawBlockBuilder.maxLines else { return false }
    var lengths: [UInt64] = []
    for _ in 0..<count {
      guard let length = VarInt.read(b, &at) else { return false }
      lengths.append(length)
    }
    for length in lengths {
      let size = Int(length >> 1)
      guard size <= b.count - at else { return false }
      ranges.append((at..<(at + size), length & 1 == 1))
      at += size
    }
    return at == b.count
  }

  var count: Int { ranges.count }

  /// The line at `slot` and whether it was stored as a BLOB; nil when the block has no such slot.
  func line(at slot: Int) -> (bytes: [UInt8], isBlob: Bool)? {
    guard slot >= 0, slot < ranges.count else { return nil }
    return (Array(bytes[ranges[slot].range]), ranges[slot].isBlob)
  }
}

/// Reads quarantine blocks by id, checked, keeping the last few.
final class QuarantineBlockReader {
  private let db: Database
  private let select: RawStatement
  private var cache: [QuarantineBlock] = []

  init(_ db: Database) throws {
    self.db = db
    select = try RawStatement(db, "SELECT data, raw_bytes, checksum FROM quarantine_blocks WHERE block_id = ?")
  }

  func block(_ id: Int64) throws -> QuarantineBlock {
    if let cached = cache.first(where: { $0.id == id }) { return cached }
    select.bind(1, id)
    var found: QuarantineBlock?
    do {
      try select.forEachRow("reading quarantine block \(id)") { row in
        found = try QuarantineBlock(
          id: id, data: row.bytes(0), rawBytes: Int(row.int64(1)), checksum: row.int64(2))
      }
    } catch let damage as BlockDamage {
      throw damage.described(db)
    }
    guard let found else {
      throw BlockDamage(block: BlockName(.quarantine, id), problem: "its row is missing").described(db)
    }
    if cache.count >= 8 { cache.removeFirst() }
    cache.append(found)
    return found
  }
}
