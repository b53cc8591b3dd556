/// The SQL of the statements an `IngestTransaction` prepares once and runs per row: kept apart
/// from the class so the statements read as a list.
enum IngestStatementSQL {
  static let insertKey =
    "INSERT OR IGNORE INTO event_keys (id_hash, block_id, slot) VALUES (?, ?, ?)"

  /// `insertKey` for `rows` rows at once.
  static func insertKeys(_ rows: Int) -> String {
    "INSERT OR IGNORE INTO event_keys (id_hash, block_id, slot) VALUES "
      + repeatElement("(?, ?, ?)", count: rows).joined(separator: ", ")
  }

  static let findKey =
    "SELECT block_id, slot FROM event_keys WHERE id_hash = ?"

  static let insertLabelled =
    "INSERT OR IGNORE INTO labelled_sessions (session_ref) VALUES (?)"

  static let insertQuarantine =
    """
    INSERT OR IGNORE INTO quarantined_lines (source_id, line, byte_offset, category, reason, event_id, run_id,
                                             raw_hash, block_id, slot)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  static let findSession =
    "SELECT session_ref FROM sessions WHERE session_key = ? AND session_id = ?"

  static let findChunk =
    """
    SELECT c.events, c.conflicts, c.rejected, c.blank, r.status IN (\(RunStatus.leftWorkUndoneSQL)) AS resumable
    FROM ingested_chunks c LEFT JOIN ingest_runs r ON r.run_id = c.run_id
    WHERE c.source = ?1 AND c.first_line = ?2 AND c.line_count = ?3 AND c.byte_count = ?4
      AND c.content_hash = ?5 AND c.rules_version = ?6
    """

  static let claimChunk =
    """
    UPDATE ingested_chunks SET run_id = ?7
    WHERE source = ?1 AND first_line = ?2 AND line_count = ?3 AND byte_count = ?4 AND content_hash = ?5
      AND rules_version = ?6
    """

  static let insertChunk =
    """
    INSERT OR IGNORE INTO ingested_chunks (source, first_line, line_count, byte_count, content_hash,
                                           rules_version, events, conflicts, rejected, blank, run_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  static let deleteViolations =
    "DELETE FROM violations WHERE session_ref = ?"

  static let insertViolation =
    """
    INSERT INTO violations (session_id, ordinal, kind, ts_ms, expected, actual, session_ref)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    """

  static let insertSession = SessionRowSQL.insert

  static let updateSession = SessionRowSQL.update
}
