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

  /// How `rebuild` brought a day's digests up to date.
  package enum Count: Equatable, Sendable {
    /// Its stored digests extended by the sessions added since they were counted (schema 15).
    case extended
    /// Every session of the day counted again.
    case whole
  }

  /// What `rebuild` hands its `count`: the sessions to count, one at a time.
  package typealias Sessions = (_ add: (SessionRecord) -> Void) throws -> Void

  /// Days whose digests must be rebuilt for `version`, in order: marked stale by a write, or
  /// counted by another version. None when the file has no digests (before schema 6).
  package func staleDays(version: Int) throws -> [Int64] {
    try database.read { db in
      guard try db.tableExists("session_digests") else { return [] }
      return try ReportQueries.staleDays(db, version: version).sorted()
    }
  }

  /// Brings `day`'s digests up to date in one transaction, so that no other writer's change
  /// can fall between the read and the mark. `count` is handed the digests to extend and the
  /// sessions to count into them, and returns the day's digests, which replace its rows; it
  /// returns nil when a stored digest will not do (one that does not decode). The digests to
  /// extend are the day's stored ones when its sessions were only added to since they were
  /// counted, and then the sessions are the added ones; otherwise none, and all its sessions.
  package func rebuild(
    day: Int64, version: Int, count: (_ stored: [StoredDigest], _ sessions: Sessions) throws -> [StoredDigest]?
  ) throws -> Count {
    try database.write { db in
      var filter = StoredDigest.filter(SessionFilter(), day: day)
      var how = Count.whole
      var digests: [StoredDigest]?
      if let last = try Self.lastCountedRef(db, day: day, version: version) {
        filter.afterSessionRef = last
        digests = try count(try ReportQueries.digests(db, day: day, version: version), Self.sessions(db, filter))
        how = .extended
      }
      if digests == nil {
        filter.afterSessionRef = nil
        how = .whole
        digests = try count([], Self.sessions(db, filter))
      }
      let last = try Self.lastRef(db, filter) ?? filter.afterSessionRef
      try Self.replace(day: day, with: digests ?? [], countedThrough: last, db)
      // The dashboard's counts of the day, extended or counted whole as its digests were.
      try DailyCounts.count(day: day, after: filter.afterSessionRef, db)
      return how
    }
  }

  private static func sessions(_ db: Database, _ filter: SessionFilter) -> Sessions {
    { add in try ReportQueries.forEachSession(db, filter, few: try ReportQueries.areFew(db, filter), add) }
  }

  /// The largest ref counted into `day`'s digests, when they can be extended: counted through
  /// it by `version` (schema 15's `digested_days`), and no session at or below it written since.
  /// Nil for a day without digests, whose sessions are all to count anyway.
  private static func lastCountedRef(_ db: Database, day: Int64, version: Int) throws -> Int64? {
    let sql = """
      SELECT last_session_ref, changed,
             EXISTS (SELECT 1 FROM session_digests WHERE day = ?1 AND digest_version != ?2) AS otherVersion
      FROM digested_days WHERE day = ?1
      """
    guard let row = try Row.fetchOne(db, sql: sql, arguments: [day, version]) else { return nil }
    let (changed, otherVersion): (Bool, Bool) = (row["changed"], row["otherVersion"])
    return changed || otherVersion ? nil : row["last_session_ref"]
  }

  /// The largest ref of the sessions `filter` selects.
  private static func lastRef(_ db: Database, _ filter: SessionFilter) throws -> Int64? {
    let (clause, values) = filter.sqlValues()
    let statement = try RawStatement(db, "SELECT max(s.session_ref) FROM sessions s WHERE \(clause)", values)
    return try statement.rows("finding the last session counted") { $0.isNull(0) ? nil : $0.int64(0) }.first ?? nil
  }

  /// The day's rows replaced by `digests`, counted through `last`, and the day no longer stale.
  private static func replace(day: Int64, with digests: [StoredDigest], countedThrough last: Int64?, _ db: Database)
    throws
  {
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
    if let last {
      try db.execute(sql: "INSERT OR REPLACE INTO digested_days VALUES (?, ?, 0)", arguments: [day, last])
    } else {
      try db.execute(sql: "DELETE FROM digested_days WHERE day = ?", arguments: [day])
    }
  }
}
