internal import GRDB
package import PullParityCore

/// The reads behind reports, checks and the session drill-down.
package struct ReportQueries {
  package let database: PullParityDatabase

  package init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// Sessions matching `filter`, in first-seen order: a plain scan of the table, which on a
  /// large file is many times faster than visiting rows in id order through the index. Each
  /// session carries the kinds of its violations as bits, found by a lookup on the violations'
  /// primary key, so that no caller keys a dictionary by session id to ask for them.
  package func sessions(_ filter: SessionFilter) throws -> [SessionRecord] {
    let (clause, arguments) = filter.sql()
    let sql = """
      SELECT s.session_id, s.app, s.profile, s.profile_version, s.platform, s.app_version, s.screen,
             s.empty, s.started_at_ms, s.outcome, s."trigger", s.time_to_arm_ms, s.arm_distance,
             s.client_arm_distance, s.release_distance, s.load_ms, s.visible_ms, s.flash,
             s.premature_hide, s.late_hide, s.hold_compliant, s.label_violations, s.arm_mismatch,
             s.load_ok, s.max_sample_gap_ms, s.max_offset_error, s.event_count,
             (SELECT sum(DISTINCT \(Self.kindBit("v.kind"))) FROM violations v WHERE v.session_id = s.session_id)
               AS violation_kinds
      FROM sessions s WHERE \(clause) ORDER BY s.session_ref
      """
    return try database.read { db in
      let statement = try db.makeStatement(sql: sql)
      // Columns are found by name once, then read by position: a name lookup per cell would
      // cost more than the scan itself on a few hundred thousand sessions.
      let c = ColumnPositions(statement)
      let cursor = try Row.fetchCursor(statement, arguments: arguments)
      var records: [SessionRecord] = []
      while let row = try cursor.next() {
        let metrics = SessionMetrics(
          outcome: SessionOutcome(rawValue: row[c["outcome"]]) ?? .incomplete,
          trigger: (row[c["trigger"]] as String?).flatMap(RefreshTrigger.init(rawValue:)),
          timeToArmMs: row[c["time_to_arm_ms"]], armDistance: row[c["arm_distance"]],
          clientArmDistance: row[c["client_arm_distance"]], releaseDistance: row[c["release_distance"]],
          loadMs: row[c["load_ms"]], visibleMs: row[c["visible_ms"]], flash: row[c["flash"]],
          prematureHide: row[c["premature_hide"]], lateHide: row[c["late_hide"]],
          holdCompliant: row[c["hold_compliant"]], labelViolations: row[c["label_violations"]],
          armMismatch: row[c["arm_mismatch"]], loadSucceeded: row[c["load_ok"]],
          maxSampleGapMs: row[c["max_sample_gap_ms"]], maxOffsetError: row[c["max_offset_error"]])
        records.append(
          SessionRecord(
            sessionID: row[c["session_id"]], app: row[c["app"]], profile: row[c["profile"]],
            profileVersion: row[c["profile_version"]], platform: row[c["platform"]],
            appVersion: row[c["app_version"]], screen: row[c["screen"]], empty: row[c["empty"]],
            startedAtMs: row[c["started_at_ms"]], metrics: metrics, eventCount: row[c["event_count"]],
            violationKinds: ViolationKinds(rawValue: row[c["violation_kinds"]] ?? 0)))
      }
      return records
    }
  }

  /// The SQL for the bit of `ViolationKinds` a stored kind name stands for; a kind this build
  /// does not know counts as none.
  static func kindBit(_ column: String) -> String {
    let cases = ViolationKind.allCases.map { "WHEN '\($0.rawValue)' THEN \(ViolationKinds($0).rawValue)" }
    return "CASE \(column) \(cases.joined(separator: " ")) ELSE 0 END"
  }

  /// Violations of the sessions matching `filter`, by session id then order of finding.
  package func violations(_ filter: SessionFilter) throws -> [ViolationRecord] {
    let (clause, arguments) = filter.sql()
    let sql = """
      SELECT v.session_id, s.app, s.platform, v.kind, v.ts_ms, v.expected, v.actual
      FROM violations v JOIN sessions s ON s.session_id = v.session_id
      WHERE \(clause) ORDER BY v.session_id, v.ordinal
      """
    return try database.read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
        guard let kind = ViolationKind(rawValue: row["kind"]) else { return nil }
        return ViolationRecord(
          sessionID: row["session_id"], app: row["app"], platform: row["platform"], kind: kind, atMs: row["ts_ms"],
          expected: row["expected"], actual: row["actual"])
      }
    }
  }

  /// The raw events of one session, for the drill-down.
  package func storedEvents(ofSession sessionID: String) throws -> [StoredEvent] {
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
      ).map { StoredEvent(raw: $0["raw"], source: $0["name"], line: $0["line"]) }
    }
  }

  /// Sessions whose id starts with `prefix`, ignoring ASCII case (a drill-down may name a
  /// session by a prefix, typed in lower case when iOS wrote the UUID in upper case). A scan of
  /// `sessions`, which is small next to `events`.
  package func sessionIDs(startingWith prefix: String, limit: Int = 5) throws -> [String] {
    let pattern = prefix.replacing("\\", with: "\\\\").replacing("%", with: "\\%").replacing("_", with: "\\_") + "%"
    return try database.read { db in
      try String.fetchAll(
        db, sql: "SELECT session_id FROM sessions WHERE session_id LIKE ? ESCAPE '\\' ORDER BY session_id LIMIT ?",
        arguments: [pattern, limit])
    }
  }

  /// Every app, platform, app version and screen that sessions have, each in name order.
  package func filterValues() throws -> FilterValues {
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
  package func storedProfiles() throws -> [StoredProfile] {
    try database.read { try ProfileRegistry.stored($0) }
  }

  /// Sessions by outcome across the whole database.
  package func outcomeCounts() throws -> [SessionOutcome: Int] {
    try database.read { db in
      var counts: [SessionOutcome: Int] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT outcome, count(*) AS sessions FROM sessions GROUP BY outcome") {
        if let outcome = SessionOutcome(rawValue: row["outcome"]) { counts[outcome] = row["sessions"] }
      }
      return counts
    }
  }
}
