package import GRDB

/// Reads blocks of raw lines by id, keeping the last ones read decompressed: a session's blocks
/// are read one after another, neighbouring sessions share blocks, and the sessions an ingest
/// transaction derives again are mostly in the blocks it wrote.
package final class RawBlockReader {
  private let select: RawStatement
  private var cache: [(id: Int64, block: RawBlock)] = []
  /// Blocks kept: 64 of 512 KiB, 32 MiB.
  private let capacity: Int

  package init(_ db: Database, capacity: Int = 64) throws {
    select = try RawStatement(db, "SELECT data, raw_bytes FROM event_blocks WHERE block_id = ?")
    self.capacity = capacity
  }

  /// The block `id`, or nil when there is none (`retain` dropped it).
  package func block(_ id: Int64) throws -> RawBlock? {
    if let index = cache.firstIndex(where: { $0.id == id }) { return cache[index].block }
    select.bind(1, id)
    var found: RawBlock?
    let (dataColumn, sizeColumn) = (select.column("data"), select.column("raw_bytes"))
    try select.forEachRow("reading raw event block \(id)") { row in
      found = try RawBlock(id: id, data: row.bytes(dataColumn), rawBytes: Int(row.int64(sizeColumn)))
    }
    guard let found else { return nil }
    if cache.count >= capacity { cache.removeFirst() }
    cache.append((id, found))
    return found
  }

  /// Forgets the blocks read: call when a block may have been rewritten.
  package func forget() { cache.removeAll() }
}
