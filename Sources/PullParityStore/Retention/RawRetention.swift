package import Foundation
package import GRDB

/// What one run of `pullparity retain` dropped (a row of `retention_runs`).
package struct RetentionRecord: Codable, Equatable, Sendable {
  package var retentionID: Int64
  package var retainedAt: String
  package var beforeMs: Double
  package var blocks: Int
  package var events: Int
  package var bytes: Int
  package var sessions: Int

  enum CodingKeys: String, CodingKey {
    case retentionID = "retention_id"
    case retainedAt = "retained_at"
    case beforeMs = "before_ms"
    case blocks, events, bytes, sessions
  }
}

/// Drops raw events older than a time, keeping every derived row, the quarantine and the
/// ledger. The unit dropped is a block whose every line is older (`event_blocks.last_ts_ms`):
/// a block is written whole and never rewritten, so a line newer than the date is never lost,
/// and a few older ones may stay until a later run. The sessions that lose any line are noted
/// in `sessions_without_raw`: their derived rows are kept as they are and never derived again.
///
/// The pages freed go on SQLite's free list, where the next ingests reuse them before the file
/// grows (`vacuum`: VACUUM also returns them to the file system).
package enum RawRetention {
  /// Drops the blocks of raw events all older than `beforeMs`; returns what was dropped, or nil
  /// when nothing was old enough (and nothing was recorded).
  package static func drop(before beforeMs: Double, in db: Database, at now: Date) throws -> RetentionRecord? {
    let old = "SELECT block_id FROM event_blocks WHERE last_ts_ms < ?"
    guard
      let row = try Row.fetchOne(
        db,
        sql: "SELECT count(*) AS blocks, sum(lines) AS events, sum(length(data)) AS bytes FROM event_blocks "
          + "WHERE last_ts_ms < ?", arguments: [beforeMs]), (row["blocks"] as Int) > 0
    else { return nil }
    let retainedAt = ISO8601DateFormatter().string(from: now)
    try db.execute(
      sql: """
        INSERT INTO retention_runs (retained_at, before_ms, blocks, events, bytes, sessions)
        VALUES (?, ?, ?, ?, ?, 0)
        """, arguments: [retainedAt, beforeMs, row["blocks"], row["events"], row["bytes"]])
    let id = db.lastInsertedRowID
    try db.execute(
      sql: """
        INSERT OR IGNORE INTO sessions_without_raw (session_ref, retention_id)
        SELECT DISTINCT session_ref, ? FROM session_blocks WHERE block_id IN (\(old))
        """, arguments: [id, beforeMs])
    let sessions = db.changesCount
    try db.execute(sql: "UPDATE retention_runs SET sessions = ? WHERE retention_id = ?", arguments: [sessions, id])
    // session_blocks keeps its rows: they say which blocks a session had.
    try db.execute(sql: "DELETE FROM event_blocks WHERE last_ts_ms < ?", arguments: [beforeMs])
    return try records(db, id: id).first
  }

  /// Every run of `retain`, newest first (`id`: only that one).
  package static func records(_ db: Database, id: Int64? = nil) throws -> [RetentionRecord] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT retention_id, retained_at, before_ms, blocks, events, bytes, sessions FROM retention_runs
        WHERE ?1 IS NULL OR retention_id = ?1 ORDER BY retention_id DESC
        """, arguments: [id])
    return rows.map {
      RetentionRecord(
        retentionID: $0["retention_id"], retainedAt: $0["retained_at"], beforeMs: $0["before_ms"],
        blocks: $0["blocks"], events: $0["events"], bytes: $0["bytes"], sessions: $0["sessions"])
    }
  }
}
