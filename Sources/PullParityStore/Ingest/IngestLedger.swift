package import Foundation
package import GRDB

/// The `ingest_runs` table: one row per run, kept up to date inside every transaction
/// so that a killed run's row says what it had committed.
///
/// A run holds its lock (byte `run_id` of `<database>-lock`, see `DatabaseLockFile`) from the
/// transaction that adds its row until it finishes. A writer that opens the database marks
/// every `running` row whose lock nobody holds `interrupted`: its process died.
package enum IngestLedger {
  package static func begin(
    _ database: PullParityDatabase, sources: [String], toolVersion: String,
    profileVersions: [String: Int], parser: String
  ) throws -> Int64 {
    guard let lockFile = database.lockFile else {
      throw StoreError(context: "starting an ingest run", message: "\(database.path) is open for reading only")
    }
    var locked: Int64?
    do {
      return try database.write { db in
        try db.execute(
          sql: """
            INSERT INTO ingest_runs (started_at, status, sources, tool_version, profile_versions, parser)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            timestamp(database.clock.now()), RunStatus.running.rawValue, json(sources), toolVersion,
            json(profileVersions), parser,
          ])
        let runID = db.lastInsertedRowID
        // Locked before the row is visible to anyone: a row seen `running` without its lock
        // held is a dead run's.
        guard try lockFile.lock(byte: runID, timeout: 0) else {
          throw StoreError(
            context: "starting run \(runID)", message: "its lock in \(lockFile.path) is held by another process")
        }
        locked = runID
        return runID
      }
    } catch {
      if let locked { lockFile.unlock(byte: locked) }
      throw error
    }
  }

  /// Records the run's totals so far; call inside the transaction.
  package static func record(_ db: Database, runID: Int64, totals: RunCounts) throws {
    try db.execute(
      sql: """
        UPDATE ingest_runs SET lines_read = ?, events_stored = ?, duplicates = ?, conflicts = ?,
          quarantined = ?, sessions_derived = ?, blank_lines = ?, lines_resumed = ?, already_quarantined = ?
        WHERE run_id = ?
        """,
      arguments: [
        totals.linesRead, totals.eventsStored, totals.duplicates, totals.conflicts,
        totals.quarantined, totals.sessionsDerived, totals.blankLines, totals.linesResumed,
        totals.alreadyQuarantined, runID,
      ])
  }

  package static func finish(
    _ database: PullParityDatabase, runID: Int64, status: RunStatus, totals: RunCounts,
    durationMs: Double
  ) throws {
    defer { database.lockFile?.unlock(byte: runID) }
    try database.write { db in
      try record(db, runID: runID, totals: totals)
      try db.execute(
        sql: "UPDATE ingest_runs SET status = ?, finished_at = ?, duration_ms = ? WHERE run_id = ?",
        arguments: [status.rawValue, timestamp(database.clock.now()), durationMs, runID])
    }
  }

  /// Marks `interrupted` the runs still `running` whose process is gone (nobody holds their
  /// lock). Their counters are what their committed transactions recorded.
  static func markDeadRunsInterrupted(_ database: PullParityDatabase, lockFile: DatabaseLockFile) throws {
    // Look before writing: a write waits for the live ingest's transactions, which follow one
    // another closely enough to keep the waiter out until that ingest ends.
    guard try !deadRuns(database, lockFile: lockFile, db: nil).isEmpty else { return }
    try database.write { db in
      for runID in try deadRuns(database, lockFile: lockFile, db: db) {
        try db.execute(
          sql: "UPDATE ingest_runs SET status = ?, recovered_at = ? WHERE run_id = ? AND status = ?",
          arguments: [
            RunStatus.interrupted.rawValue, timestamp(database.clock.now()), runID, RunStatus.running.rawValue,
          ])
      }
    }
  }

  /// Runs still `running` whose process holds no lock: killed. `db`: inside a write, or nil to
  /// read on its own.
  private static func deadRuns(
    _ database: PullParityDatabase, lockFile: DatabaseLockFile, db: Database?
  ) throws -> [Int64] {
    let sql = "SELECT run_id FROM ingest_runs WHERE status = ?"
    let arguments: StatementArguments = [RunStatus.running.rawValue]
    let running =
      try db.map { try Int64.fetchAll($0, sql: sql, arguments: arguments) }
      ?? database.read { try Int64.fetchAll($0, sql: sql, arguments: arguments) }
    return try running.filter { try !lockFile.isHeldElsewhere(byte: $0) }
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
