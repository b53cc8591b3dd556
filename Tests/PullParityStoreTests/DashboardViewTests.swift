import Foundation
import GRDB
import PullParityCore
import PullParitySchema
import PullParityStore
import Testing

/// The dashboard views of schema/0002 and the documentation in schema/README.md, checked against
/// a database of hand-made rows whose every figure below was worked out by hand. Dashboards read
/// these names and numbers directly, so a change here is a change of the interface.
@Suite struct DashboardViewTests {
  // MARK: - The hand-made database

  /// 2026-11-16T00:00:00Z and the next UTC midnight.
  static let day1 = 1_794_787_200_000.0
  static let day2 = day1 + 86_400_000

  struct SessionRow {
    var id: String
    var app: String
    var platform: String
    var version: String
    var screen: String
    var outcome: String
    var trigger: String?
    var start: Double
    var timeToArm: Double? = nil
    var arm: Double? = nil
    var clientArm: Double? = nil
    var release: Double? = nil
    var load: Double? = nil
    var visible: Double? = nil
    var flash: Int? = nil
    var premature: Int? = nil
    var late: Int? = nil
    var hold: Int? = nil
    var labels: Int? = nil
    var mismatch: Int? = nil
  }

  // s3 is a cancelled pull that never armed and s8 a session with no trigger at all: both must
  // count as sessions without feeding any rate or value. Distances are multiples of 0.25 so
  // their averages are exact in binary.
  static let sessions: [SessionRow] = [
    SessionRow(
      id: "s1", app: "padel", platform: "ios", version: "3.8.1", screen: "FeedView", outcome: "completed",
      trigger: "pull", start: day1 + 1000, timeToArm: 120, arm: 33.5, clientArm: 34, release: 40, load: 800,
      visible: 1300, flash: 0, premature: 0, late: 0, hold: 1, labels: 0, mismatch: 0),
    SessionRow(
      id: "s2", app: "padel", platform: "ios", version: "3.8.1", screen: "FeedView", outcome: "completed",
      trigger: "pull", start: day1 + 2000, timeToArm: 150, arm: 34.5, clientArm: 24.5, release: 45, load: 1500,
      visible: 1700, flash: 0, premature: 0, late: 1, hold: 0, labels: 2, mismatch: 1),
    SessionRow(
      id: "s3", app: "padel", platform: "ios", version: "3.8.1", screen: "MatchesView", outcome: "cancelled",
      trigger: "pull", start: day1 + 3000, release: 10, labels: 0),
    SessionRow(
      id: "s4", app: "padel", platform: "pwa", version: "3.8.0", screen: "feed", outcome: "completed",
      trigger: "pull", start: day1 + 4000, timeToArm: 90, arm: 35, clientArm: 35, release: 50, load: 300,
      visible: 400, flash: 1, premature: 1, late: 0, hold: 0, labels: 0, mismatch: 0),
    SessionRow(
      id: "s5", app: "padel", platform: "pwa", version: "3.8.0", screen: "feed", outcome: "completed",
      trigger: "pull", start: day2 + 5000, timeToArm: 110, arm: 36, clientArm: 36, release: 52, load: 900,
      visible: 1250, flash: 0, premature: 0, late: 0, hold: 1, labels: 1, mismatch: 0),
    SessionRow(
      id: "s6", app: "padel", platform: "pwa", version: "3.8.0", screen: "feed", outcome: "incomplete",
      trigger: "pull", start: day2 + 6000, timeToArm: 95, arm: 33.5, clientArm: 33.5, release: 41, labels: 0,
      mismatch: 0),
    SessionRow(
      id: "s7", app: "phlock", platform: "ios", version: "2.1.0", screen: "Feed", outcome: "completed",
      trigger: "tab_reselect", start: day1 + 7000, load: 500, visible: 1320, flash: 0, premature: 0, late: 0,
      hold: 1),
    SessionRow(
      id: "s8", app: "phlock", platform: "ios", version: "2.1.0", screen: "Feed", outcome: "incomplete",
      trigger: nil, start: day1 + 8000),
    SessionRow(
      id: "s9", app: "padel", platform: "pwa", version: "3.8.0", screen: "matches", outcome: "completed",
      trigger: "pull", start: day1 + 9000, timeToArm: 130, arm: 34, clientArm: 34, release: 48, load: 2000,
      visible: 2300, flash: 0, premature: 0, late: 0, hold: 1, labels: 0, mismatch: 0),
  ]

  /// (session, ordinal, kind, ts_ms)
  static let violations: [(String, Int, String, Double)] = [
    ("s2", 0, "arm_mismatch", day1 + 2100),
    ("s2", 1, "label_text", day1 + 2200),
    ("s2", 2, "label_text", day1 + 2300),
    ("s2", 3, "late_hide", day1 + 4000),
    ("s4", 0, "flash", day1 + 4500),
    ("s4", 1, "premature_hide", day1 + 4500),
    ("s5", 0, "label_text", day2 + 5200),
    ("s7", 0, "indicator_config", day1 + 7100),
  ]

  /// (source, line, category)
  static let quarantined: [(String, Int, String)] = [
    ("a.jsonl", 4, "not_json"),
    ("a.jsonl", 8, "not_json"),
    ("a.jsonl", 12, "conflict"),
    ("b.jsonl.gz", 2, "missing_field"),
  ]

  /// A fresh database file with the rows above; removed by the caller's `defer`.
  static func makeDatabase() throws -> (PullParityDatabase, URL) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pullparity-dash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = try PullParityDatabase(path: directory.appendingPathComponent("test.sqlite").path)
    try database.write { db in
      for s in sessions {
        let finalState = ["completed": "done", "cancelled": "cancelled"][s.outcome] ?? "refreshing"
        let violationCount = violations.count { $0.0 == s.id }
        try db.execute(
          sql: """
            INSERT INTO sessions (
              session_id, app, profile, profile_version, platform, app_version, screen, empty, outcome,
              final_state, "trigger", time_to_arm_ms, arm_distance, client_arm_distance,
              release_distance, load_ms, visible_ms, flash, premature_hide, late_hide, hold_compliant,
              label_violations, arm_mismatch, violation_count, event_count, started_at_ms, ended_at_ms, session_key)
            VALUES (?, ?, ?, 1, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 12, ?, ?, ?)
            """,
          arguments: [
            s.id, s.app, s.app, s.platform, s.version, s.screen, s.outcome, finalState, s.trigger,
            s.timeToArm, s.arm, s.clientArm, s.release, s.load, s.visible, s.flash, s.premature, s.late,
            s.hold, s.labels, s.mismatch, violationCount, s.start, s.start + 3000, EventKey.of(s.id),
          ])
      }
      for (session, ordinal, kind, ts) in violations {
        try db.execute(
          sql: """
            INSERT INTO violations (session_id, ordinal, kind, ts_ms, expected, actual, session_ref)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, (SELECT session_ref FROM sessions WHERE session_id = ?1))
            """,
          arguments: [session, ordinal, kind, ts, "expected \(kind)", "actual \(kind)"])
      }
      for (i, (source, line, category)) in quarantined.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO quarantine (source, line, byte_offset, category, reason, raw, run_id, raw_hash)
            VALUES (?, ?, ?, ?, 'hand-made', ?, 1, ?)
            """,
          arguments: [source, line, line * 100, category, "line \(line)", i])
      }
    }
    return (database, directory)
  }

  /// Runs `body` against a fresh hand-made database and removes it afterwards.
  static func withDatabase(_ body: (PullParityDatabase) throws -> Void) throws {
    let (database, directory) = try makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(database)
  }

  // MARK: - Cells: typed, because a dashboard sees INTEGER and REAL differently

  enum Cell: Equatable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByNilLiteral
  {
    case null
    case int(Int64)
    case real(Double)
    case text(String)

    init(integerLiteral value: Int64) { self = .int(value) }
    init(floatLiteral value: Double) { self = .real(value) }
    init(stringLiteral value: String) { self = .text(value) }
    init(nilLiteral: ()) { self = .null }

    init(_ value: DatabaseValue) {
      switch value.storage {
      case .null: self = .null
      case .int64(let v): self = .int(v)
      case .double(let v): self = .real(v)
      case .string(let v): self = .text(v)
      case .blob: self = .text("<blob>")
      }
    }

    var description: String {
      switch self {
      case .null: "NULL"
      case .int(let v): "\(v)"
      case .real(let v): "\(v)r"
      case .text(let v): "'\(v)'"
      }
    }
  }

  static func rows(_ database: PullParityDatabase, _ sql: String) throws -> [[Cell]] {
    try database.read { db in
      try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map(Cell.init) }
    }
  }

  static func columns(_ database: PullParityDatabase, of table: String) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { $0[0] as String }
    }
  }

  static func cell(_ value: Double?) -> Cell { value.map(Cell.real) ?? .null }

  // MARK: - The views

  @Test func viewsAreExactlyTheDocumentedOnes() throws {
    try Self.withDatabase { database in
      let views = try Self.rows(database, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
      #expect(
        views == [
          ["daily_parity"], ["percentile_inputs"], ["quarantine"], ["quarantine_summary"], ["session_violations"],
          ["violation_counts"],
        ])
      let migrations = try database.appliedMigrations()
      #expect(
        migrations == [
          "0001_events_and_sessions", "0002_dashboard_views", "0003_profiles", "0004_exact_run_ledger",
          "0005_time_ordered_event_keys", "0006_session_digests", "0007_key_epochs", "0008_session_keys",
          "0009_field_failures", "0010_dashboard_percentages", "0011_compressed_raw_events",
          "0012_events_left_in_runs", "0013_screen_left", "0014_block_checksums",
          "0015_digest_appends", "0016_dashboard_verdicts", "0017_dataset_runs",
        ])
    }
  }

  /// Schema 10 only adds columns to a view: a read-only open still takes a file without it (a
  /// replay to add a view would be out of all proportion), and the next write adds it.
  @Test func aFileWithoutThePercentagesIsReadAndTheNextWriteAddsThem() throws {
    let (database, directory) = try Self.makeDatabase()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("test.sqlite").path
    let version9 = try #require(Schema.migrations.first { $0.name == "0009_field_failures" }).sql
    let view = try #require(version9.range(of: "CREATE VIEW daily_parity AS"))
    try database.write { db in
      try db.execute(sql: "DROP VIEW daily_parity")
      try db.execute(sql: String(version9[view.lowerBound...]))
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0010_dashboard_percentages'")
    }
    let reader = try PullParityDatabase(path: path, readOnly: true)
    #expect(try Self.columns(reader, of: "daily_parity").last == "near_miss_rate")
    let writer = try PullParityDatabase(path: path)
    #expect(try Self.columns(writer, of: "daily_parity").last == "near_miss_pct")
  }

  /// The column lists are the interface: new columns go at the end, none is renamed.
  @Test(arguments: [
    (
      "daily_parity",
      [
        "day", "app", "platform", "trigger", "sessions", "completed", "cancelled", "incomplete",
        "flash_sessions", "flash_judged", "flash_rate", "premature_hide_sessions", "premature_hide_judged",
        "premature_hide_rate", "late_hide_sessions", "late_hide_judged", "late_hide_rate",
        "hold_compliant_sessions", "hold_compliant_judged", "hold_compliance_rate", "label_violations",
        "label_violation_sessions", "label_judged", "label_violation_rate", "arm_mismatch_sessions",
        "arm_judged", "arm_mismatch_rate", "visible_ms_n", "visible_ms_avg", "visible_ms_min",
        "visible_ms_max", "arm_distance_n", "arm_distance_avg", "arm_distance_min", "arm_distance_max",
        "stuck_refresh_sessions", "stuck_refresh_judged", "stuck_refresh_rate", "dropped_refresh_sessions",
        "dropped_refresh_judged", "dropped_refresh_rate", "repeated_refresh_sessions", "repeated_refresh_judged",
        "repeated_refresh_rate", "near_miss_cancels", "near_miss_judged", "near_miss_rate", "flash_pct",
        "premature_hide_pct", "late_hide_pct", "hold_compliance_pct", "label_violation_pct", "arm_mismatch_pct",
        "stuck_refresh_pct", "dropped_refresh_pct", "repeated_refresh_pct", "near_miss_pct",
        // Schema 13 (v1.2): abandoned during refresh, and what is pending.
        "abandoned", "abandoned_during_refresh_sessions", "abandoned_during_refresh_judged",
        "abandoned_during_refresh_rate", "abandoned_during_refresh_pct", "pending_sessions", "pending_until_ms",
      ]
    ),
    (
      "violation_counts",
      ["app", "platform", "kind", "violations", "sessions_affected", "first_ts_ms", "last_ts_ms"]
    ),
    ("percentile_inputs", ["session_id", "app", "platform", "trigger", "day", "metric", "value"]),
    (
      "session_violations",
      [
        "session_id", "ordinal", "kind", "ts_ms", "expected", "actual", "app", "profile", "platform",
        "app_version", "screen", "trigger", "day",
      ]
    ),
    ("quarantine_summary", ["source", "category", "lines"]),
  ])
  func viewColumns(view: String, expected: [String]) throws {
    try Self.withDatabase { database in
      let columns = try Self.columns(database, of: view)
      #expect(columns == expected)
    }
  }

  @Test func dailyParity() throws {
    try Self.withDatabase { database in
      let rows = try Self.rows(
        database, #"SELECT * FROM daily_parity ORDER BY day, app, platform, "trigger""#)
      let expected: [[Cell]] = [
        // padel/ios day 1: s1 held, s2 late with two bad labels and a mismatched arm, s3
        // cancelled before arming (counted as a session, judged for labels only).
        [
          "2026-11-16", "padel", "ios", "pull", 3, 2, 1, 0,
          0, 2, 0.0, 0, 2, 0.0, 1, 2, 0.5, 1, 2, 0.5,
          2, 1, 3, .real(1.0 / 3.0), 1, 2, 0.5,
          2, 1500.0, 1300.0, 1700.0, 2, 34.0, 33.5, 34.5,
          // The v1.1 rules: this fixture writes rows from before them (schema 8), all NULL.
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          // Schema 10: the rates as percentages, two decimals.
          0.0, 0.0, 50.0, 50.0, 33.33, 50.0, nil, nil, nil, nil,
          // Schema 13: nothing abandoned, nothing pending.
          0, 0, 0, nil, nil, 0, nil,
        ],
        // padel/pwa day 1: s4 flashed and hid before the load, s9 held.
        [
          "2026-11-16", "padel", "pwa", "pull", 2, 2, 0, 0,
          1, 2, 0.5, 1, 2, 0.5, 0, 2, 0.0, 1, 2, 0.5,
          0, 0, 2, 0.0, 0, 2, 0.0,
          2, 1350.0, 400.0, 2300.0, 2, 34.5, 34.0, 35.0,
          // The v1.1 rules: this fixture writes rows from before them (schema 8), all NULL.
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          // Schema 10: the rates as percentages, two decimals.
          50.0, 50.0, 0.0, 50.0, 0.0, 0.0, nil, nil, nil, nil,
          // Schema 13: nothing abandoned, nothing pending.
          0, 0, 0, nil, nil, 0, nil,
        ],
        // s8: no trigger, nothing judged: zero counts, NULL rates and values. NULL sorts first.
        [
          "2026-11-16", "phlock", "ios", nil, 1, 0, 0, 1,
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          0, 0, 0, nil, 0, 0, nil,
          0, nil, nil, nil, 0, nil, nil, nil,
          // The v1.1 rules: this fixture writes rows from before them (schema 8), all NULL.
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          // Schema 10: the rates as percentages, two decimals.
          nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
          // Schema 13: nothing abandoned, nothing pending.
          0, 0, 0, nil, nil, 0, nil,
        ],
        // s7: a tab re-select refresh; phlock has no label copy and no client arming.
        [
          "2026-11-16", "phlock", "ios", "tab_reselect", 1, 1, 0, 0,
          0, 1, 0.0, 0, 1, 0.0, 0, 1, 0.0, 1, 1, 1.0,
          0, 0, 0, nil, 0, 0, nil,
          1, 1320.0, 1320.0, 1320.0, 0, nil, nil, nil,
          // The v1.1 rules: this fixture writes rows from before them (schema 8), all NULL.
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          // Schema 10: the rates as percentages, two decimals.
          0.0, 0.0, 0.0, 100.0, nil, nil, nil, nil, nil, nil,
          // Schema 13: nothing abandoned, nothing pending.
          0, 0, 0, nil, nil, 0, nil,
        ],
        // padel/pwa day 2: s5 held with one bad label, s6 incomplete (armed, never shown).
        [
          "2026-11-17", "padel", "pwa", "pull", 2, 1, 0, 1,
          0, 1, 0.0, 0, 1, 0.0, 0, 1, 0.0, 1, 1, 1.0,
          1, 1, 2, 0.5, 0, 2, 0.0,
          1, 1250.0, 1250.0, 1250.0, 2, 34.75, 33.5, 36.0,
          // The v1.1 rules: this fixture writes rows from before them (schema 8), all NULL.
          0, 0, nil, 0, 0, nil, 0, 0, nil, 0, 0, nil,
          // Schema 10: the rates as percentages, two decimals.
          0.0, 0.0, 0.0, 100.0, 50.0, 0.0, nil, nil, nil, nil,
          // Schema 13: nothing abandoned, nothing pending.
          0, 0, 0, nil, nil, 0, nil,
        ],
      ]
      #expect(rows.count == expected.count)
      for (row, want) in zip(rows, expected) { #expect(row == want) }
    }
  }

  @Test func violationCounts() throws {
    try Self.withDatabase { database in
      let d1 = Self.day1
      let d2 = Self.day2
      let rows = try Self.rows(database, "SELECT * FROM violation_counts ORDER BY app, platform, kind")
      #expect(
        rows == [
          ["padel", "ios", "arm_mismatch", 1, 1, .real(d1 + 2100), .real(d1 + 2100)],
          ["padel", "ios", "label_text", 2, 1, .real(d1 + 2200), .real(d1 + 2300)],
          ["padel", "ios", "late_hide", 1, 1, .real(d1 + 4000), .real(d1 + 4000)],
          ["padel", "pwa", "flash", 1, 1, .real(d1 + 4500), .real(d1 + 4500)],
          // Same kind on two platforms: one row per platform, not merged.
          ["padel", "pwa", "label_text", 1, 1, .real(d2 + 5200), .real(d2 + 5200)],
          ["padel", "pwa", "premature_hide", 1, 1, .real(d1 + 4500), .real(d1 + 4500)],
          ["phlock", "ios", "indicator_config", 1, 1, .real(d1 + 7100), .real(d1 + 7100)],
        ])
    }
  }

  @Test func percentileInputsHaveOneRowPerNonNullValue() throws {
    try Self.withDatabase { database in
      let counts = try Self.rows(
        database, "SELECT metric, count(*), count(value) FROM percentile_inputs GROUP BY metric ORDER BY metric")
      #expect(
        counts == [
          ["arm_distance", 6, 6], ["client_arm_distance", 6, 6], ["load_ms", 6, 6],
          ["time_to_arm_ms", 6, 6], ["visible_ms", 6, 6],
        ])

      let visible = try Self.rows(
        database, "SELECT * FROM percentile_inputs WHERE metric = 'visible_ms' ORDER BY session_id")
      #expect(
        visible == [
          ["s1", "padel", "ios", "pull", "2026-11-16", "visible_ms", 1300.0],
          ["s2", "padel", "ios", "pull", "2026-11-16", "visible_ms", 1700.0],
          ["s4", "padel", "pwa", "pull", "2026-11-16", "visible_ms", 400.0],
          ["s5", "padel", "pwa", "pull", "2026-11-17", "visible_ms", 1250.0],
          ["s7", "phlock", "ios", "tab_reselect", "2026-11-16", "visible_ms", 1320.0],
          ["s9", "padel", "pwa", "pull", "2026-11-16", "visible_ms", 2300.0],
        ])

      // Every value is the sessions column of the metric's name, for every metric.
      for metric in ["arm_distance", "client_arm_distance", "time_to_arm_ms", "visible_ms", "load_ms"] {
        let fromView = try Self.rows(
          database, "SELECT session_id, value FROM percentile_inputs WHERE metric = '\(metric)' ORDER BY session_id")
        let fromTable = Self.sessions.sorted { $0.id < $1.id }.compactMap { s -> [Cell]? in
          let value: Double? =
            switch metric {
            case "arm_distance": s.arm
            case "client_arm_distance": s.clientArm
            case "time_to_arm_ms": s.timeToArm
            case "visible_ms": s.visible
            default: s.load
            }
          return value.map { [.text(s.id), .real($0)] }
        }
        #expect(fromView == fromTable, "\(metric)")
      }
    }
  }

  @Test func sessionViolations() throws {
    try Self.withDatabase { database in
      let rows = try Self.rows(database, "SELECT * FROM session_violations ORDER BY session_id, ordinal")
      #expect(rows.count == Self.violations.count)
      #expect(
        rows[1] == [
          "s2", 1, "label_text", .real(Self.day1 + 2200), "expected label_text", "actual label_text",
          "padel", "padel", "ios", "3.8.1", "FeedView", "pull", "2026-11-16",
        ])
      // The day is the session's, which started the day before this finding of s5.
      let dayOfS5 = try Self.rows(database, "SELECT day FROM session_violations WHERE session_id = 's5'")
      #expect(dayOfS5 == [["2026-11-17"]])
    }
  }

  @Test func quarantineSummary() throws {
    try Self.withDatabase { database in
      let rows = try Self.rows(database, "SELECT * FROM quarantine_summary ORDER BY source, category")
      #expect(
        rows == [
          ["a.jsonl", "conflict", 1],
          ["a.jsonl", "not_json", 2],
          ["b.jsonl.gz", "missing_field", 1],
        ])
    }
  }

  // MARK: - The contract's columns (docs/events.md §8)

  // Contract v1.1 §8 no longer asks for a row per event in `events`: the raw lines are in
  // blocks, read back by `pullparity export`.
  @Test(arguments: [
    (
      "sessions",
      [
        "session_id", "app", "profile", "platform", "app_version", "screen", "outcome", "trigger",
        "time_to_arm_ms", "arm_distance", "client_arm_distance", "release_distance", "load_ms",
        "visible_ms", "flash", "premature_hide", "late_hide", "hold_compliant", "label_violations",
      ]
    ),
    ("violations", ["session_id", "kind", "ts_ms", "expected", "actual"]),
    ("quarantine", ["source", "line", "byte_offset", "reason", "raw"]),
    (
      "ingest_runs",
      [
        "run_id", "started_at", "sources", "lines_read", "events_stored", "duplicates", "conflicts",
        "quarantined", "sessions_derived",
      ]
    ),
  ])
  func contractColumnsExist(table: String, required: [String]) throws {
    try Self.withDatabase { database in
      let columns = Set(try Self.columns(database, of: table))
      let missing = required.filter { !columns.contains($0) }
      #expect(missing.isEmpty, "\(table) lacks \(missing)")
    }
  }

  // MARK: - The documentation

  /// Every table and view has a heading, and every column of it appears in a table row or in
  /// backticks: a column a dashboard author cannot look up is not documented.
  @Test func everyTableViewAndColumnIsDocumented() throws {
    let doc = Schema.documentation
    try Self.withDatabase { database in
      let objects = try Self.rows(
        database,
        """
        SELECT name FROM sqlite_master
        WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
        ORDER BY name
        """
      ).map { cells -> String in
        guard case .text(let name) = cells[0] else { return "" }
        return name
      }
      #expect(objects.count == 33)
      for object in objects {
        #expect(doc.contains("### \(object):"), "no heading for \(object)")
        for column in try Self.columns(database, of: object) {
          #expect(
            doc.contains("| \(column) ") || doc.contains("`\(column)`"), "\(object).\(column) is not documented")
        }
      }
      #expect(doc.contains("grdb_migrations"))
    }
  }

  /// `pullparity schema` prints the README on a terminal.
  @Test func documentationFitsA100ColumnTerminal() {
    let long = Schema.documentation.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      .filter { $0.element.count > 100 }.map { "line \($0.offset + 1): \($0.element.count)" }
    #expect(long.isEmpty)
  }

  /// The ```sql blocks of the "Example queries" section, in order.
  static func exampleQueries() -> [String] {
    let doc = Schema.documentation
    guard let start = doc.range(of: "\n## Example queries\n") else { return [] }
    var section = doc[start.upperBound...]
    if let end = section.range(of: "\n## ") { section = section[..<end.lowerBound] }
    var queries: [String] = []
    var current: [Substring]?
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```sql" {
        current = []
      } else if current != nil, line == "```" {
        queries.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return queries
  }

  @Test func exampleQueriesRunAndGiveTheHandComputedRows() throws {
    let queries = Self.exampleQueries()
    try #require(queries.count == 3)
    try Self.withDatabase { database in
      // 1. Flash rate per platform per day, padel: the triggers summed first.
      let rows0 = try Self.rows(database, queries[0])
      #expect(
        rows0 == [
          ["2026-11-16", "ios", 0, 2, 0.0],
          ["2026-11-16", "pwa", 1, 2, 50.0],
          ["2026-11-17", "pwa", 0, 1, 0.0],
        ])
      // 2. Violation counts by kind, most frequent first.
      let rows1 = try Self.rows(database, queries[1])
      #expect(
        rows1 == [
          ["padel", "ios", "label_text", 2, 1],
          ["padel", "ios", "arm_mismatch", 1, 1],
          ["padel", "ios", "late_hide", 1, 1],
          ["padel", "pwa", "flash", 1, 1],
          ["padel", "pwa", "label_text", 1, 1],
          ["padel", "pwa", "premature_hide", 1, 1],
          ["phlock", "ios", "indicator_config", 1, 1],
        ])
      // 3. p50 of visible time for pull refreshes: ios {1300, 1700} → 1500 (mean of the middle
      // two), pwa {400, 1250, 2300} → 1250 (the middle one); phlock has only a tab re-select.
      let rows2 = try Self.rows(database, queries[2])
      #expect(
        rows2 == [
          ["padel", "ios", 2, 1500.0],
          ["padel", "pwa", 3, 1250.0],
        ])
    }
  }
}
