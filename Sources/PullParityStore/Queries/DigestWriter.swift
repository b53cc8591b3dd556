import Foundation
internal import GRDB
internal import PullParityCore

/// Rewrites the digests of stale days (schema 0006): the write half of `session_digests`.
/// What a digest holds is the report's business; this only keeps the rows in step with the
/// sessions they were counted from.
package struct DigestWriter {
  package let database: PullParityDatabase

  package init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// Days whose digests must be rebuilt for `version`, in order: marked stale by a write, or
  /// counted by another version. None when the file has no digests (before schema 6).
  package func staleDays(version: Int) throws -> [Int64] {
    try database.read { db in
      guard try db.tableExists("session_digests") else { return [] }
      return try ReportQueries.staleDays(db, version: version).sorted()
    }
  }

  /// Rebuilds `day`'s digests in one transaction: `count` is handed the day's sessions and
  /// returns their digests, which replace the day's rows, and the day stops being stale. One
  /// transaction, so that no other writer's change can fall between the read and the mark.
  package func rebuild(
    day: Int64, count: (_ sessions: (_ add: (SessionRecord) -> Void) throws -> Void) throws -> [StoredDigest]
  ) throws {
    try database.write { db in
      let digests = try count { add in
        let filter = StoredDigest.filter(SessionFilter(), day: day)
        try ReportQueries.forEachSession(db, filter, few: try ReportQueries.areFew(db, filter), add)
      }
      try db.execute(sql: "DELETE FROM session_digests WHERE day = ?", arguments: [day])
      // Through SQLite's C API: the cell's names are keys, and GRDB would store them up to
      // their first NUL (`demo\u{0}x` counted into `demo`'s digests).
      let insert = try RawStatement(
        db,
        """
        INSERT INTO session_digests (day, app, profile, profile_version, platform, "trigger", screen,
                                     app_version, sessions, completed, cancelled, incomplete,
                                     abandoned, digest_version, digest)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      for digest in digests {
        let (cell, outcomes) = (digest.cell, digest.outcomes)
        let values: [(any DatabaseValueConvertible)?] = [
          day, cell.app, cell.profile, cell.profileVersion, cell.platform, cell.trigger, cell.screen,
          cell.appVersion, digest.sessions, outcomes[.completed] ?? 0, outcomes[.cancelled] ?? 0,
          outcomes[.incomplete] ?? 0, outcomes[.abandoned] ?? 0, digest.version, Data(digest.bytes),
        ]
        for (index, value) in values.enumerated() { insert.bind(Int32(index + 1), value?.databaseValue ?? .null) }
        try insert.execute("writing the digests of day \(day)")
      }
      try db.execute(sql: "DELETE FROM stale_digest_days WHERE day = ?", arguments: [day])
    }
  }
}
