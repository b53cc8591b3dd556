internal import Foundation
internal import GRDB

/// What schema version 11 (`0011_compressed_raw_events.sql`) needs from the program: every row
/// of `events` copied into blocks before the table is dropped.
///
/// Rows are read in `event_pk` order, which ingest wrote chunk by chunk and session by session
/// within a chunk, so the blocks keep each session's lines together as an ingest would. Each
/// event keeps its key (`id_hash`). The whole conversion is one transaction, the migration's:
/// a kill leaves the file at its old version, and the next write converts it again from the
/// start, to the same bytes.
enum RawEventConversion {
  static let name = "0011_compressed_raw_events"
  /// The line of the file after which the program has converted the events.
  static let marker = "-- pullparity: convert events"

  static func run(_ db: Database, sql: String) throws {
    let parts = sql.components(separatedBy: marker)
    guard parts.count == 2 else {
      throw StoreError(context: "migrating to \(name)", message: "the migration has no '\(marker)' line")
    }
    try db.execute(sql: parts[0])
    try convert(db)
    try db.execute(sql: parts[1])
  }

  private static func convert(_ db: Database) throws {
    let blocks = try RawBlockWriter(db)
    let insertKey = try RawStatement(db, "INSERT INTO event_keys (id_hash, block_id, slot) VALUES (?, ?, ?)")
    let rows = try RawStatement(
      db,
      """
      SELECT id_hash, event_id, session_ref, source_id, line, byte_offset, ts_ms, raw
      FROM events ORDER BY event_pk
      """)
    let columns = ["id_hash", "event_id", "session_ref", "source_id", "line", "byte_offset", "ts_ms", "raw"]
      .map(rows.column)
    try rows.forEachRow("converting events into blocks") { row in
      let key = row.int64(columns[0])
      let (block, slot) = blocks.nextPlace
      insertKey.bind(1, key)
      insertKey.bind(2, block)
      insertKey.bind(3, slot)
      try insertKey.execute("converting event \(key)")
      let line = RawLine(
        sessionRef: row.int64(columns[2]), sourceID: row.int64(columns[3]), line: Int(row.int64(columns[4])),
        byteOffset: Int(row.int64(columns[5])), timestamp: row.double(columns[6]))
      try blocks.append(line, eventID: row.bytes(columns[1]), raw: row.bytes(columns[7]))
    }
    try blocks.flush()
  }
}
