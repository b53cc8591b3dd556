internal import GRDB

extension ReportQueries {
  /// The selection as stored digests where they are current and as sessions where they are
  /// not, in one read, so that the two never overlap or miss a session: the digests of
  /// `version` of every day no write has touched since they were counted, and every session of
  /// the other days. `filter` must not select a time range (digests are by whole day).
  ///
  /// Returns false, having handed over nothing, when no digest is current (a file written
  /// before schema 6, or not refreshed since): the caller then reads the sessions, all at
  /// once, which is faster than day by day.
  package func forEachDigestOrSession(
    _ filter: SessionFilter, version: Int, digest: (StoredDigest) throws -> Void,
    session: (SessionRecord) throws -> Void
  ) throws -> Bool {
    precondition(filter.sinceMs == nil && filter.untilMs == nil, "digests are by whole day")
    return try database.read { db in
      guard try db.tableExists("session_digests") else { return false }
      let stale = try Self.staleDays(db, version: version)
      let digests = try Self.digests(db, filter, version: version, excluding: stale)
      guard !digests.isEmpty else { return false }
      try digests.forEach(digest)
      for day in stale.sorted() {
        try Self.forEachSession(db, StoredDigest.filter(filter, day: day), few: true, session)
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

  private static func digests(_ db: Database, _ filter: SessionFilter, version: Int, excluding stale: Set<Int64>)
    throws -> [StoredDigest]
  {
    let (clause, values) = filter.sqlValues()
    let statement = try RawStatement(
      db,
      """
      SELECT s.day, s.app, s.profile, s.profile_version, s.platform, s."trigger", s.screen, s.app_version,
             s.sessions, s.digest
      FROM session_digests s WHERE \(clause) AND s.digest_version = ?
      """)
    for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    statement.bind(Int32(values.count + 1), version)
    let columns = StoredDigestColumns(statement)
    var digests: [StoredDigest] = []
    try statement.forEachRow("reading the session digests") { row in
      let digest = columns.digest(row, version: version)
      if !stale.contains(digest.day) { digests.append(digest) }
    }
    return digests
  }
}
