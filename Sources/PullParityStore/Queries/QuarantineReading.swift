package import GRDB

/// Reads quarantined lines with their bytes: from their row (written before schema version 14)
/// or from their quarantine block, checked.
package enum QuarantineReading {
  package static func lines(_ db: Database, _ filter: QuarantineFilter, limit: Int? = nil) throws -> [QuarantinedLine] {
    let (condition, arguments) = filter.sql
    let blocks = try QuarantineBlockReader(db)
    return try Row.fetchAll(
      db,
      sql: """
        SELECT quarantine_id, source, line, byte_offset, category, reason, CAST(raw AS BLOB) AS raw,
               typeof(raw) = 'blob' AS is_blob, event_id, run_id, block_id, slot
        FROM quarantine WHERE \(condition) ORDER BY source, line, quarantine_id LIMIT ?
        """,
      arguments: arguments + [limit ?? -1]
    ).map { row in
      var line = QuarantinedLine(row: row)
      if let blockID: Int64 = row["block_id"] {
        let slot: Int = row["slot"]
        guard let raw = try blocks.block(blockID).line(at: slot) else {
          throw BlockDamage(
            block: BlockName(.quarantine, blockID),
            problem: "quarantined line \(line.id) names slot \(slot), which it does not have"
          ).described(db)
        }
        line.set(raw.bytes, isBlob: raw.isBlob)
      }
      return line
    }
  }
}
