import Foundation
public import GRDB

/// The `ingest_runs` table: one row per run, kept up to date inside every batch's transaction
/// so that a killed run's row says what it had committed.
public enum IngestLedger {
  public static func begin(
    _ database: PullParityDatabase, sources: [String], toolVersion: String,
    profileVersions: [String: Int], parser: String
  ) throws -> Int64 {
    try database.write { db in
      try db.execute(
        sql: """
          INSERT INTO ingest_runs (started_at, status, sources, tool_version, profile_versions, parser)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          timestamp(Date()), RunStatus.running.rawValue, json(sources), toolVersion,
          json(profileVersions), parser,
        ])
      return db.lastInsertedRowID
    }
  }

  /// Records the run's totals so far; call inside the batch's transaction.
  public static func record(_ db: Database, runID: Int64, totals: RunCounts) throws {
    try db.execute(
      sql: """
        UPDATE ingest_runs SET lines_read = ?, events_stored = ?, duplicates = ?, conflicts = ?,
          quarantined = ?, sessions_derived = ? WHERE run_id = ?
        """,
      arguments: [
        totals.linesRead, totals.eventsStored, totals.duplicates, totals.conflicts,
        totals.quarantined, totals.sessionsDerived, runID,
      ])
  }

  public static func finish(
    _ database: PullParityDatabase, runID: Int64, status: RunStatus, totals: RunCounts,
    durationMs: Double
  ) throws {
    try database.write { db in
      try record(db, runID: runID, totals: totals)
      try db.execute(
        sql: "UPDATE ingest_runs SET status = ?, finished_at = ?, duration_ms = ? WHERE run_id = ?",
        arguments: [status.rawValue, timestamp(Date()), durationMs, runID])
    }
  }

  package static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: date)
  }

  private static func json(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }
}
