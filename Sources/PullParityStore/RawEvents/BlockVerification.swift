internal import GRDB

/// `pullparity verify`: every stored block read as a command would read it (checksum, zstd
/// frame, directory), one at a time, and the quarantine's rows checked against their blocks.
package struct BlockVerification: Sendable {
  package var eventBlocks = 0
  package var quarantineBlocks = 0
  /// Raw event blocks written before schema version 14, without a checksum: decompressed and
  /// their directory read, which finds most damage but not all.
  package var unchecked = 0
  package var damaged: [BlockDamage] = []

  package var isClean: Bool { damaged.isEmpty }

  /// Reads every block of `database`; memory is one block at a time.
  package static func run(_ database: PullParityDatabase) throws -> BlockVerification {
    try database.read { db in
      var result = BlockVerification()
      var found: [BlockDamage] = []
      let events = try RawStatement(
        db, "SELECT block_id, data, raw_bytes, checksum FROM event_blocks ORDER BY block_id")
      try events.forEachRow("verifying the raw event blocks") { row in
        result.eventBlocks += 1
        let checksum = row.isNull(3) ? nil : row.int64(3)
        if checksum == nil { result.unchecked += 1 }
        do {
          _ = try RawBlock(
            id: row.int64(0), data: row.bytes(1), rawBytes: Int(row.int64(2)), checksum: checksum,
            warnUnchecked: false)
        } catch let damage as BlockDamage {
          found.append(damage)
        }
      }
      let quarantine = try RawStatement(
        db, "SELECT block_id, data, raw_bytes, checksum, lines FROM quarantine_blocks ORDER BY block_id")
      var slots: [Int64: Int] = [:]
      try quarantine.forEachRow("verifying the quarantine blocks") { row in
        result.quarantineBlocks += 1
        do {
          let block = try QuarantineBlock(
            id: row.int64(0), data: row.bytes(1), rawBytes: Int(row.int64(2)), checksum: row.int64(3))
          slots[block.id] = block.count
        } catch let damage as BlockDamage {
          found.append(damage)
        }
      }
      // A row naming a slot its (undamaged) block does not have.
      let rows = try RawStatement(
        db, "SELECT quarantine_id, block_id, slot FROM quarantined_lines WHERE block_id IS NOT NULL ORDER BY block_id")
      var missing: [Int64: [Int64]] = [:]
      try rows.forEachRow("verifying the quarantine's rows") { row in
        let block = row.int64(1)
        guard !found.contains(where: { $0.block == BlockName(.quarantine, block) }) else { return }
        let slot = Int(row.int64(2))
        if slot < 0 || slot >= slots[block] ?? 0 { missing[block, default: []].append(row.int64(0)) }
      }
      for (block, ids) in missing.sorted(by: { $0.key < $1.key }) {
        let problem =
          slots[block] == nil
          ? "it is missing, and quarantined lines \(ids.prefix(5).map(String.init).joined(separator: ", ")) are in it"
          : "quarantined lines \(ids.prefix(5).map(String.init).joined(separator: ", ")) name slots it does not have"
        found.append(BlockDamage(block: BlockName(.quarantine, block), problem: problem))
      }
      result.damaged = found.map { $0.described(db) }
      return result
    }
  }
}
