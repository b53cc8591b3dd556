internal import GRDB

/// Reads about ingest runs and what they quarantined.
package struct RunQueries {
  package let database: PullParityDatabase

  package init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// Quarantined lines matching `filter`, in source and line order. A line kept in a quarantine
  /// block is read from it, checked: a damaged block throws `BlockDamage`.
  package func quarantined(_ filter: QuarantineFilter, limit: Int? = nil) throws -> [QuarantinedLine] {
    try database.read { db in try QuarantineReading.lines(db, filter, limit: limit) }
  }

  /// How many quarantined lines match `filter`.
  package func quarantinedCount(_ filter: QuarantineFilter) throws -> Int {
    let (condition, arguments) = filter.sql
    return try database.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM quarantine WHERE \(condition)", arguments: arguments) ?? 0
    }
  }

  /// The `ingest_runs` ledger, newest first.
  package func runs(limit: Int? = nil) throws -> [IngestRun] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT r.*, l.directory AS events_left_in, l.events AS events_left
          FROM ingest_runs r LEFT JOIN left_event_runs l USING (run_id) ORDER BY run_id DESC LIMIT ?
          """, arguments: [limit ?? -1]
      )
      .map(IngestRun.init(row:))
    }
  }
}
