package import GRDB

/// Reads blocks of raw lines by id, keeping the last ones read decompressed: a session's blocks
/// are read one after another, neighbouring sessions share blocks, and the sessions an ingest
/// transaction derives again are mostly in the blocks it wrote.
package final class RawBlockReader {
  private let db: Database
  private let select: RawStatement
  private var cache: [(id: Int64, block: RawBlock)] = []
  /// Blocks kept: 64 of 512 KiB, 32 MiB.
  private let capacity: Int

  package init(_ db: Database, capacity: Int = 64) throws {
    self.db = db
    select = try RawStatement(db, "SELECT data, raw_bytes, checksum FROM event_blocks WHERE block_id = ?")
    self.capacity = capacity
  }

  /// The block `id`, or nil when there is none (`retain` dropped it). A block whose bytes are
  /// not what was written throws `BlockDamage`, naming its sessions and time range.
  package func block(_ id: Int64) throws -> RawBlock? {
    if let index = cache.firstIndex(where: { $0.id == id }) { return cache[index].block }
    select.bind(1, id)
    var found: RawBlock?
    let (dataColumn, sizeColumn, checksumColumn) =
      (select.column("data"), select.column("raw_bytes"), select.column("checksum"))
    do {
      try select.forEachRow("reading raw event block \(id)") { row in
        found = try RawBlock(
          id: id, data: row.bytes(dataColumn), rawBytes: Int(row.int64(sizeColumn)),
          checksum: row.isNull(checksumColumn) ? nil : row.int64(checksumColumn))
      }
    } catch let damage as BlockDamage {
      throw damage.described(db)
    }
    guard let found else { return nil }
    if cache.count >= capacity { cache.removeFirst() }
    cache.append((id, found))
    return found
  }

  /// Forgets the blocks read: call when a block may have been rewritten.
  package func forget() { cache.removeAll() }
}
