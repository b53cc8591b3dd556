internal import GRDB

extension ReportQueries {
  /// The selection as stored digests where they are current and as sessions where they are
  /// not, in one read, so that the two never overlap or miss a session: the digests of
  /// `version` of every day no write has touched since they were counted, and every session of
  /// the other days. `filter` must select whole days (`StoredDigest.days(of:)`).
  ///
  /// Returns false, having handed over nothing, when no digest is current (a file written
  /// before schema 6, or not refreshed since): the caller then reads the sessions, all at
  /// once, which is faster than day by day.
  package func forEachDigestOrSession(
    _ filter: SessionFilter, version: Int, digest: (StoredDigest) throws -> Void,
    session: (SessionRecord) throws -> Void
  ) throws -> Bool {
    guard let days = StoredDigest.days(of: filter) else { preconditionFailure("digests are by whole day") }
    return try database.read { db in
      guard try db.tableExists("session_digests") else { return false }
      let stale = try Self.staleDays(db, version: version).filter { day in
        days.from.map { day >= $0 } != false && days.until.map { day < $0 } != false
      }
      // Handed over row by row: a long history's digests are tens of MB.
      let handed = try Self.forEachDigest(db, filter, days: days, version: version, excluding: stale, digest)
      guard handed > 0 else { return false }
      for day in stale.sorted() {
        let dayFilter = StoredDigest.filter(filter, day: day)
        try Self.forEachSession(db, dayFilter, few: try Self.areFew(db, dayFilter), session)
      }
      return true
    }
  }

  /// Days marked stale by a write, and days whose digests another version counted.
  static func staleDays(_ db: Database, version: Int) throws -> Set<Int64> {
    Set(
      try Int64.fetchAll(
        db,
        sql: "SELECT day FROM stale_digest_days UNION SELECT day FROM session_digests WHERE digest_version != ?",
        arguments: [version]))
  }

  /// The digests of `version` stored for `day`.
  static func digests(_ db: Database, day: Int64, version: Int) throws -> [StoredDigest] {
    var digests: [StoredDigest] = []
    try forEachDigest(db, SessionFilter(), days: (day, day + 1), version: version, excluding: []) {
      digests.append($0)
    }
    return digests
  }

  /// Hands `body` the current digests of the selected cells and days; returns how many.
  @discardableResult
  private static func forEachDigest(
    _ db: Database, _ filter: SessionFilter, days: (from: Int64?, until: Int64?), version: Int,
    excluding stale: Set<Int64>, _ body: (StoredDigest) throws -> Void
  ) throws -> Int {
    var cells = filter
    (cells.sinceMs, cells.untilMs) = (nil, nil)
    var (clause, values) = cells.sqlValues()
    clause += " AND s.digest_version = ?"
    values.append(version.databaseValue)
    if let from = days.from {
      clause += " AND s.day >= ?"
      values.append(from.databaseValue)
    }
    if let until = days.until {
      clause += " AND s.day < ?"
      values.append(until.databaseValue)
    }
    let statement = try RawStatement(
      db,
      """
      SELECT s.day, s.app, s.profile, s.profile_version, s.platform, s."trigger", s.screen, s.app_version,
             s.sessions, s.completed, s.cancelled, s.incomplete, s.abandoned, s.digest
      FROM session_digests s WHERE \(clause)
      """)
    for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    let columns = StoredDigestColumns(statement)
    var count = 0
    try statement.forEachRow("reading the session digests") { row in
      let digest = columns.digest(row, version: version)
      guard !stale.contains(digest.day) else { return }
      count += 1
      try body(digest)
    }
    return count
  }
}
