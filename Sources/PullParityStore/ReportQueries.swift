import GRDB
public import PullParityCore

/// The reads behind reports, checks and the session drill-down.
public struct ReportQueries {
  public let database: PullParityDatabase

  public init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// Sessions matching `filter`, in first-seen order: a plain scan of the table, which on a
  /// large file is many times faster than visiting rows in id order through the index.
  public func sessions(_ filter: SessionFilter) throws -> [SessionRecord] {
    let (clause, arguments) = filter.sql()
    let sql = """
      SELECT s.session_id, s.app, s.profile, s.profile_version, s.platform, s.app_version, s.screen,
             s.empty, s.started_at_ms, s.outcome, s."trigger", s.time_to_arm_ms, s.arm_distance,
             s.client_arm_distance, s.release_distance, s.load_ms, s.visible_ms, s.flash,
             s.premature_hide, s.late_hide, s.hold_compliant, s.label_violations, s.arm_mismatch,
             s.load_ok, s.max_sample_gap_ms, s.max_offset_error
      FROM sessions s WHERE \(clause) ORDER BY s.session_ref
      """
    return try database.read { db in
      let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      var records: [SessionRecord] = []
      while let row = try cursor.next() {
        let metrics = SessionMetrics(
          outcome: SessionOutcome(rawValue: row[9]) ?? .incomplete,
          trigger: (row[10] as String?).flatMap(RefreshTrigger.init(rawValue:)),
          timeToArmMs: row[11], armDistance: row[12], clientArmDistance: row[13],
          releaseDistance: row[14], loadMs: row[15], visibleMs: row[16], flash: row[17],
          prematureHide: row[18], lateHide: row[19], holdCompliant: row[20], labelViolations: row[21],
          armMismatch: row[22], loadSucceeded: row[23], maxSampleGapMs: row[24], maxOffsetError: row[25])
        records.append(
          SessionRecord(
            sessionID: row[0], app: row[1], profile: row[2], profileVersion: row[3], platform: row[4],
            appVersion: row[5], screen: row[6], empty: row[7], startedAtMs: row[8], metrics: metrics))
      }
      return records
    }
  }

  /// Violations of the sessions matching `filter`, by session id then order of finding.
  public func violations(_ filter: SessionFilter) throws -> [ViolationRecord] {
    let (clause, arguments) = filter.sql()
    let sql = """
      SELECT v.session_id, s.app, s.platform, v.kind, v.ts_ms, v.expected, v.actual
      FROM violations v JOIN sessions s ON s.session_id = v.session_id
      WHERE \(clause) ORDER BY v.session_id, v.ordinal
      """
    return try database.read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
        guard let kind = ViolationKind(rawValue: row[3]) else { return nil }
        return ViolationRecord(
          sessionID: row[0], app: row[1], platform: row[2], kind: kind, atMs: row[4],
          expected: row[5], actual: row[6])
      }
    }
  }

  /// The raw events of one session, for the drill-down.
  public func storedEvents(ofSession sessionID: String) throws -> [StoredEvent] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT e.raw, s.name, e.line
          FROM session_spans sp
          JOIN events e ON e.event_pk BETWEEN sp.first_event_pk AND sp.last_event_pk
          JOIN sources s ON s.source_id = e.source_id
          WHERE sp.session_ref = (SELECT session_ref FROM sessions WHERE session_id = ?)
          """,
        arguments: [sessionID]
      ).map { StoredEvent(raw: $0[0], source: $0[1], line: $0[2]) }
    }
  }

  /// Sessions whose id starts with `prefix` (a drill-down may name a session by a prefix).
  public func sessionIDs(startingWith prefix: String, limit: Int = 5) throws -> [String] {
    try database.read { db in
      try String.fetchAll(
        db, sql: "SELECT session_id FROM sessions WHERE session_id >= ? AND session_id < ? ORDER BY session_id LIMIT ?",
        arguments: [prefix, prefix + "\u{10FFFF}", limit])
    }
  }

  /// Every app, platform, app version and screen that sessions have, each in name order.
  public func filterValues() throws -> FilterValues {
    try database.read { db in
      func distinct(_ column: String) throws -> [String] {
        try String.fetchAll(
          db, sql: "SELECT DISTINCT \(column) FROM sessions WHERE \(column) IS NOT NULL ORDER BY \(column)")
      }
      return FilterValues(
        apps: try distinct("app"), platforms: try distinct("platform"), appVersions: try distinct("app_version"),
        screens: try distinct("screen"), sessions: try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") ?? 0)
    }
  }

  /// The profiles sessions were derived with.
  public func storedProfiles() throws -> [StoredProfile] {
    try database.read { try ProfileRegistry.stored($0) }
  }

  /// Sessions by outcome across the whole database.
  public func outcomeCounts() throws -> [SessionOutcome: Int] {
    try database.read { db in
      var counts: [SessionOutcome: Int] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT outcome, count(*) FROM sessions GROUP BY outcome") {
        if let outcome = SessionOutcome(rawValue: row[0]) { counts[outcome] = row[1] }
      }
      return counts
    }
  }
}
