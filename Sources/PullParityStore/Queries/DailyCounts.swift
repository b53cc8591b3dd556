internal import GRDB

/// Schema 16's per-day tables, `daily_counts` and `daily_violations`: a day's rows brought up
/// to date from its sessions. `DigestWriter` does it in the transaction that counts the day's
/// digests and the way it counts them, so the dashboard's days are stale or fresh exactly when
/// the reports' are: a day whose sessions were only added to since it was counted has the new
/// sessions' counts added to its rows (what counting it whole gives: every column is a sum, a
/// minimum or a maximum over disjoint sessions); any other day is counted whole.
enum DailyCounts {
  /// `day`'s rows (a day as in `session_digests`) brought up to date: extended by the sessions
  /// after `lastCounted`, or counted whole when it is nil or the table has no row of the day
  /// (never counted: a file from before schema 16, whose digests were counted without them).
  static func count(day: Int64, after lastCounted: Int64?, _ db: Database) throws {
    for table in [DayTable.counts, .violations] {
      let last = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM \(table.name) WHERE day = ?", arguments: [day])
      let after = last == nil ? nil : lastCounted
      // A range of `started_at_ms`, which `sessions_by_start` serves: the day of a session is
      // `CAST(started_at_ms / 86400000 AS INTEGER)`, the same sessions.
      let arguments: StatementArguments = [
        day, Double(day) * 86_400_000, Double(day + 1) * 86_400_000, after ?? Int64.min,
      ]
      try db.execute(sql: after == nil ? table.insertWhole : table.insertMerged, arguments: arguments)
      // The rows that were there, now counted into the new ones (or counted again whole).
      if let last {
        try db.execute(sql: "DELETE FROM \(table.name) WHERE day = ? AND rowid <= ?", arguments: [day, last])
      }
    }
  }

  /// Every day that has digests and no counts, counted whole, one transaction each: the days
  /// of a file that just got the tables which its first write after did not count. A day with
  /// sessions has at least one row of `daily_counts`; one with none was never counted.
  static func countUncountedDays(_ database: PullParityDatabase) throws {
    let days = try database.read { db in
      try Int64.fetchAll(
        db,
        sql: """
          SELECT DISTINCT d.day FROM session_digests d
          WHERE NOT EXISTS (SELECT 1 FROM daily_counts c WHERE c.day = d.day)
          """)
    }
    for day in days { try database.write { db in try count(day: day, after: nil, db) } }
  }
}

/// One of the per-day tables: its keys, and each column with how a day's sessions give it and
/// how two counts of disjoint sessions combine.
private struct DayTable {
  var name: String
  var keys: [(name: String, expression: String)]
  /// What the sessions (`s`) are joined with.
  var join: String
  var columns: [(name: String, expression: String, combine: String)]

  /// The counts of the day's sessions after the last one counted (?2 to ?4), by key. `added`:
  /// the sessions after ?4 are those a run added, found by their refs (`NOT INDEXED` leaves
  /// SQLite the rowid only) rather than through the day's index, which visits every session of
  /// the day: 137 against 86 ms for a day of 164,000 sessions extended by 27,000.
  func counted(added: Bool) -> String {
    let selected =
      keys.map { "\($0.expression) AS \(Self.quoted($0.name))" }
      + columns.map { "\($0.expression) AS \(Self.quoted($0.name))" }
    return """
      SELECT \(selected.joined(separator: ", ")) FROM sessions s \(added ? "NOT INDEXED " : "")\(join)
      WHERE s.started_at_ms >= ?2 AND s.started_at_ms < ?3 AND s.session_ref > ?4
      GROUP BY \(keys.map(\.expression).joined(separator: ", "))
      """
  }

  var insertWhole: String { "INSERT INTO \(name) SELECT ?1, * FROM (\(counted(added: false)))" }

  /// The day's stored rows and the new counts, combined by key.
  var insertMerged: String {
    let names = (keys.map(\.name) + columns.map(\.name)).map(Self.quoted).joined(separator: ", ")
    let keyNames = keys.map { Self.quoted($0.name) }.joined(separator: ", ")
    let combined = columns.map { "\($0.combine)(\(Self.quoted($0.name)))" }.joined(separator: ", ")
    return """
      INSERT INTO \(name)
      SELECT ?1, \(keyNames), \(combined)
      FROM (SELECT \(names) FROM \(name) WHERE day = ?1 UNION ALL \(counted(added: true)))
      GROUP BY \(keyNames)
      """
  }

  private static func quoted(_ name: String) -> String { "\"\(name)\"" }

  private static func flag(_ name: String, count: String? = nil, judged: String? = nil, of column: String? = nil)
    -> [(String, String, String)]
  {
    let column = column ?? name
    return [
      (count ?? "\(name)_sessions", "coalesce(sum(s.\(column)), 0)", "sum"),
      (judged ?? "\(name)_judged", "count(s.\(column))", "sum"),
    ]
  }

  // The columns and their meaning are `daily_parity`'s (schema 13), by day, trigger and app version.
  static let counts = DayTable(
    name: "daily_counts",
    keys: [
      ("app", "s.app"), ("platform", "s.platform"), ("trigger", "s.\"trigger\""), ("app_version", "s.app_version"),
    ],
    join: "",
    columns: [
      ("sessions", "count(*)", "sum"), ("first_started_at_ms", "min(s.started_at_ms)", "min"),
      ("completed", "sum(s.outcome = 'completed')", "sum"), ("cancelled", "sum(s.outcome = 'cancelled')", "sum"),
      ("incomplete", "sum(s.outcome = 'incomplete')", "sum"), ("abandoned", "sum(s.outcome = 'abandoned')", "sum"),
    ] + flag("flash") + flag("premature_hide") + flag("late_hide") + flag("hold_compliant")
      + [
        ("label_violation_sessions", "coalesce(sum(s.label_violations > 0), 0)", "sum"),
        ("label_judged", "count(s.label_violations)", "sum"),
      ]
      + flag("arm_mismatch", judged: "arm_judged") + flag("stuck_refresh") + flag("dropped_refresh")
      + flag("repeated_refresh") + flag("near_miss", count: "near_miss_cancels")
      + [
        (
          "abandoned_during_refresh_sessions", "sum(s.outcome = 'abandoned' AND s.refresh_started_at_ms IS NOT NULL)",
          "sum"
        ),
        ("abandoned_during_refresh_judged", "count(s.refresh_started_at_ms)", "sum"),
        ("pending_sessions", "count(s.judge_again_at_ms)", "sum"),
        ("pending_until_ms", "max(s.judge_again_at_ms)", "max"),
      ])

  // A session's findings all count in its day, so counts of disjoint sessions add up.
  static let violations = DayTable(
    name: "daily_violations",
    keys: [("app", "s.app"), ("platform", "s.platform"), ("kind", "v.kind")],
    join: "JOIN violations v ON v.session_ref = s.session_ref",
    columns: [("violations", "count(*)", "sum"), ("sessions_affected", "count(DISTINCT v.session_ref)", "sum")])
}
