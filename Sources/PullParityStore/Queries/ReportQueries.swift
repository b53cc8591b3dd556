internal import GRDB
package import PullParityCore

/// The reads behind reports, checks and the session drill-down.
package struct ReportQueries {
  package let database: PullParityDatabase

  package init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// The version of the profile the session of `ref` was derived with.
  package func profileVersion(ofSession ref: Int64) throws -> Int? {
    try database.read { db in
      try Int.fetchOne(db, sql: "SELECT profile_version FROM sessions WHERE session_ref = ?", arguments: [ref])
    }
  }

  /// When the newest session started (through `sessions_by_start`); nil without sessions.
  package func newestSessionStartMs() throws -> Double? {
    try database.read { db in try Double.fetchOne(db, sql: "SELECT max(started_at_ms) FROM sessions") }
  }

  /// Sessions matching `filter`, in first-seen order: a plain scan of the table, which on a
  /// large file is many times faster than visiting rows in id order through the index. Each
  /// session carries the kinds of its violations, so that no caller keys a dictionary by
  /// session id to ask for them.
  package func sessions(_ filter: SessionFilter) throws -> [SessionRecord] {
    var records: [SessionRecord] = []
    try forEachSession(filter) { records.append($0) }
    return records
  }

  /// The sessions of `sessions(_:)`, handed to `body` one at a time as they are read.
  package func forEachSession(_ filter: SessionFilter, _ body: (SessionRecord) throws -> Void) throws {
    try database.read { db in try Self.forEachSession(db, filter, body) }
  }

  /// `forEachSession` within a transaction already open. With `few`, the selected sessions are
  /// found by their index and the violations read for them only (a day of a long history);
  /// otherwise both tables are read whole in `session_ref` order, which is faster for any
  /// large part of them (no sort: a day holding all 164,000 sessions of a file was read in
  /// 0.73 s that way against 1.0–1.28 s through the index).
  static func forEachSession(
    _ db: Database, _ filter: SessionFilter, few: Bool = false, _ body: (SessionRecord) throws -> Void
  ) throws {
    let (clause, values) = filter.sqlValues()
    let table = few ? "sessions s" : "sessions s NOT INDEXED"
    let sql = "SELECT \(SessionRecordColumns.selectList) FROM \(table) WHERE \(clause) ORDER BY s.session_ref"
    let statement = try RawStatement(db, sql)
    for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    let columns = SessionRecordColumns(statement)
    var kinds =
      try few
      ? SessionViolationKinds.read(db, sessionsWhere: clause, values) : SessionViolationKinds.read(db)
    try statement.forEachRow("reading the selected sessions") { try body(try columns.record($0, kinds: &kinds)) }
  }

  /// Whether the sessions matching `filter` are few enough (under a quarter of all) to be
  /// found by their index rather than in a read of the whole table.
  static func areFew(_ db: Database, _ filter: SessionFilter) throws -> Bool {
    let (clause, values) = filter.sqlValues()
    let count = "SELECT count(*) FROM sessions s WHERE \(clause)"
    let selected = try Int.fetchOne(db, sql: count, arguments: StatementArguments(values)) ?? 0
    // Refs only grow: the largest bounds the table's rows, in one index descent.
    let all = try Int.fetchOne(db, sql: "SELECT max(session_ref) FROM sessions") ?? 0
    return selected * 4 < all
  }

  /// Violations of the sessions matching `filter`, by session id then order of finding.
  package func violations(_ filter: SessionFilter) throws -> [ViolationRecord] {
    let (clause, values) = filter.sqlValues()
    let sql = """
      SELECT \(Self.violationColumns)
      FROM violations v JOIN sessions s ON s.session_ref = v.session_ref
      WHERE \(clause) ORDER BY v.session_id, v.ordinal
      """
    return try database.read { db in
      try RawStatement(db, sql, values).rows("reading violations", Self.violation)
    }
  }

  /// The `unexpected_event` findings of the selected sessions by app, platform and what arrived in
  /// which state, the commonest first, at most `limit` arrivals per app and platform.
  package func unexpectedArrivals(_ filter: SessionFilter, limit: Int) throws -> [UnexpectedArrival] {
    let (clause, values) = filter.sqlValues()
    let sql = """
      SELECT s.app, s.platform, v.actual, count(*) AS n
      FROM violations v JOIN sessions s ON s.session_ref = v.session_ref
      WHERE v.kind = '\(ViolationKind.unexpectedEvent.rawValue)' AND \(clause)
      GROUP BY s.app, s.platform, v.actual ORDER BY s.app, s.platform, n DESC, v.actual
      """
    let all = try database.read { db in
      try RawStatement(db, sql, values).rows("reading unexpected events") {
        UnexpectedArrival(app: $0.string(0), platform: $0.string(1), arrival: $0.string(2), count: Int($0.int64(3)))
      }
    }
    // Rows come grouped by app and platform, commonest first: keep each group's first `limit`.
    var kept: [UnexpectedArrival] = []
    var inGroup = 0
    for arrival in all {
      let sameGroup =
        kept.last.map {
          ByteIdentity($0.app) == ByteIdentity(arrival.app)
            && ByteIdentity($0.platform) == ByteIdentity(arrival.platform)
        } ?? false
      inGroup = sameGroup ? inGroup + 1 : 1
      if inGroup <= limit { kept.append(arrival) }
    }
    return kept
  }

  /// What the stored session `sessionID` was judged with besides its events (none for a session
  /// not stored): its data's horizon and the previous refresh on its install and screen.
  package func judgementContext(ofSession sessionID: String) throws -> SessionContext {
    try database.read { db in
      guard let ref = try Self.sessionRef(of: sessionID, db) else { return SessionContext() }
      return try CrossSessionQueries.context(of: ref, db)
    }
  }

  /// The first `limit` distinct sessions, in id order, of the selected ones with a violation of
  /// `kind`, or of any kind this build knows when `nil`, with their refs (what their events and
  /// violations are found by). SQLite keeps only the first `limit` while it reads the violations.
  package func violatingSessions(
    _ filter: SessionFilter, kind: ViolationKind?, limit: Int
  ) throws -> [(id: String, ref: Int64)] {
    let (clause, values) = filter.sqlValues()
    let kinds = kind.map { [$0] } ?? ViolationKind.allCases
    let list = kinds.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    let sql = """
      SELECT DISTINCT v.session_id, v.session_ref FROM violations v JOIN sessions s ON s.session_ref = v.session_ref
      WHERE v.kind IN (\(list)) AND \(clause) ORDER BY v.session_id LIMIT \(limit)
      """
    return try database.read { db in
      try RawStatement(db, sql, values).rows("reading violating sessions") { ($0.string(0), $0.int64(1)) }
    }
  }

  /// One session's violations, in order of finding.
  package func violations(ofSession ref: Int64) throws -> [ViolationRecord] {
    let sql = """
      SELECT \(Self.violationColumns)
      FROM violations v JOIN sessions s ON s.session_ref = v.session_ref
      WHERE v.session_ref = ? ORDER BY v.ordinal
      """
    return try database.read { db in
      try RawStatement(db, sql, [ref.databaseValue]).rows("reading a session's violations", Self.violation)
    }
  }

  /// The ref of session `sessionID`: a UUIDv7 is found by its key (`sessions_by_key`); any
  /// other id by a scan of `sessions` (its key depends on the epoch it was stored in), which is
  /// small next to `events`.
  private static func sessionRef(of sessionID: String, _ db: Database) throws -> Int64? {
    let statement: RawStatement
    if EventKey.isTimeOrdered(sessionID) {
      statement = try RawStatement(db, IngestStatementSQL.findSession)
      statement.bind(1, EventKey.of(sessionID))
      statement.bind(2, sessionID)
    } else {
      statement = try RawStatement(db, "SELECT session_ref FROM sessions WHERE session_id = ?")
      statement.bind(1, sessionID)
    }
    return try statement.rows("finding a session") { $0.int64(0) }.first
  }

  private static let violationColumns = "v.session_id, s.app, s.platform, v.kind, v.ts_ms, v.expected, v.actual"

  /// A violation row of `violationColumns`; a kind this build does not know is an error.
  private static func violation(_ row: RawStatement) throws(StoreError) -> ViolationRecord {
    ViolationRecord(
      sessionID: row.string(0), app: row.string(1), platform: row.string(2),
      kind: try StoredEnumValue.decode(row.string(3), table: "violations", column: "kind"),
      atMs: row.double(4), expected: row.optionalString(5), actual: row.optionalString(6))
  }

  /// The raw events of the session with ref `ref`, one at a time (`StoredLines`).
  package func forEachStoredEvent(
    ofSession ref: Int64, _ body: (UnsafeRawBufferPointer, String, Int) throws -> Void
  ) throws {
    _ = try database.read { db in
      try StoredLines(db).forEachLine(ofSession: ref) { info, _, raw in try body(raw, info.sourceName, info.line) }
    }
  }

  /// The raw events of the session with ref `ref`.
  package func storedEvents(ofSession ref: Int64) throws -> [StoredEvent] {
    try database.read { db in try Self.storedEvents(ofSession: ref, db) }
  }

  /// The raw events of one session, for the drill-down.
  package func storedEvents(ofSession sessionID: String) throws -> [StoredEvent] {
    try database.read { db in
      try Self.sessionRef(of: sessionID, db).map { try Self.storedEvents(ofSession: $0, db) } ?? []
    }
  }

  private static func storedEvents(ofSession ref: Int64, _ db: Database) throws -> [StoredEvent] {
    var events: [StoredEvent] = []
    try StoredLines(db).forEachLine(ofSession: ref) { info, _, raw in
      events.append(StoredEvent(raw: String(decoding: raw, as: UTF8.self), source: info.sourceName, line: info.line))
    }
    return events
  }

  /// The `retain` run that dropped the raw events of session `sessionID`, or nil when they are
  /// kept: such a session can no longer be derived again.
  package func rawDropped(ofSession sessionID: String) throws -> RawDrop? {
    try database.read { db in
      guard let ref = try Self.sessionRef(of: sessionID, db) else { return nil }
      return try Row.fetchOne(
        db,
        sql: """
          SELECT r.retention_id, r.retained_at, r.before_ms
          FROM sessions_without_raw w JOIN retention_runs r USING (retention_id) WHERE w.session_ref = ?
          """, arguments: [ref]
      ).map { RawDrop(retentionID: $0["retention_id"], retainedAt: $0["retained_at"], beforeMs: $0["before_ms"]) }
    }
  }

  /// Where `load --leave-events` left the events of session `sessionID`; nil when they are
  /// stored in the file (or it has none).
  package func leftEvents(ofSession sessionID: String) throws -> LeftSession? {
    try database.read { db in try Self.sessionRef(of: sessionID, db).flatMap { try LeftEvents.session($0, db) } }
  }

  /// Sessions whose id starts with `prefix`, ignoring ASCII case (a drill-down may name a
  /// session by a prefix, typed in lower case when iOS wrote the UUID in upper case). A scan of
  /// `sessions`, which is small next to `events`.
  package func sessionIDs(startingWith prefix: String, limit: Int = 5) throws -> [String] {
    let pattern = prefix.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
    let sql = "SELECT session_id FROM sessions WHERE session_id LIKE ? ESCAPE '\\' ORDER BY session_id LIMIT ?"
    // LIKE reads both sides up to a NUL: `a\u{0}b%` would match the id `a`. Only ids that
    // really start with the prefix are kept.
    let wanted = Array(prefix.utf8).map(Self.asciiLowercased)
    return try database.read { db in
      try RawStatement(db, sql, [pattern.databaseValue, limit.databaseValue]).rows("finding sessions") {
        $0.string(0)
      }
    }.filter { $0.utf8.lazy.map(Self.asciiLowercased).starts(with: wanted) }
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
  }

  /// Every app, platform, app version and screen that sessions have, each in name order.
  package func filterValues() throws -> FilterValues {
    try database.read { db in
      func distinct(_ column: String) throws -> [String] {
        let sql = "SELECT DISTINCT \(column) FROM sessions WHERE \(column) IS NOT NULL ORDER BY \(column)"
        return try RawStatement(db, sql).rows("listing each \(column)") { $0.string(0) }
      }
      return FilterValues(
        apps: try distinct("app"), platforms: try distinct("platform"), appVersions: try distinct("app_version"),
        screens: try distinct("screen"), sessions: try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0)
    }
  }

  /// The profiles sessions were derived with.
  package func storedProfiles() throws -> [StoredProfile] {
    try database.read { try ProfileRegistry.stored($0) }
  }

  /// Sessions by outcome across the whole database: summed from the day digests, and counted
  /// from the sessions only for stale days (a count of every session took a second at 100M
  /// events, and `ingest` prints this after every run).
  package func outcomeCounts() throws -> [SessionOutcome: Int] {
    try database.read { db in
      var counts: [SessionOutcome: Int] = [:]
      func add(_ sql: String, _ arguments: StatementArguments = []) throws {
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
          let outcome: SessionOutcome = try StoredEnumValue.decode(row["outcome"], table: "sessions", column: "outcome")
          counts[outcome, default: 0] += row["sessions"]
        }
      }
      guard try db.tableExists("session_digests") else {
        try add("SELECT outcome, count(*) AS sessions FROM sessions GROUP BY outcome")
        return counts
      }
      for outcome in SessionOutcome.allCases {
        try add(
          """
          SELECT '\(outcome.rawValue)' AS outcome, coalesce(sum(\(outcome.rawValue)), 0) AS sessions
          FROM session_digests WHERE day NOT IN (SELECT day FROM stale_digest_days)
          """)
      }
      for day in try Int64.fetchAll(db, sql: "SELECT day FROM stale_digest_days") {
        let (clause, values) = StoredDigest.filter(SessionFilter(), day: day).sqlValues()
        try add(
          "SELECT outcome, count(*) AS sessions FROM sessions s WHERE \(clause) GROUP BY outcome",
          StatementArguments(values))
      }
      return counts.filter { $0.value > 0 }
    }
  }
}
