import GRDB
import PullParityCore
import PullParityStore
import PullParityTestSupport
import Testing

/// What reports read from the store: each session with the kinds of its violations, and the
/// first violating sessions for the HTML report's examples. The ids are chosen so that byte
/// order, first-seen order and String equality all disagree: a prefix of another id, the same
/// letter precomposed and decomposed (equal as Strings, two sessions to SQLite), and a
/// violation of a session the table does not hold.
@Suite struct ReportQueriesTests {
  /// (session id, platform, kinds of its violations in order of finding), in first-seen order.
  static let sessions: [(String, String, [String])] = [
    ("z", "ios", ["late_hide", "a_kind_from_a_newer_build"]),
    ("ab", "pwa", ["flash", "flash", "cache_order"]),
    ("a", "pwa", []),
    ("e\u{301}", "pwa", ["reveal_order"]),
    ("\u{E9}", "pwa", []),
    ("abc", "pwa", ["double_refresh"]),
    ("y", "pwa", ["a_kind_from_a_newer_build"]),
  ]

  static func makeDatabase(_ directory: TemporaryDirectory) throws -> PullParityDatabase {
    let database = try PullParityDatabase(path: directory.path("report.sqlite"))
    try database.write { db in
      for (ref, (id, platform, kinds)) in sessions.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO sessions (session_ref, session_id, app, profile, profile_version, platform, empty, outcome,
              final_state, violation_count, event_count, started_at_ms, ended_at_ms, session_key)
            VALUES (?, ?, 'padel', 'padel', 1, ?, 0, 'completed', 'done', ?, 5, ?, ?, ?)
            """, arguments: [ref + 1, id, platform, kinds.count, 1000 * ref, 1000 * ref + 500, EventKey.of(id)])
        for (ordinal, kind) in kinds.enumerated() {
          try db.execute(
            sql: "INSERT INTO violations (session_id, ordinal, kind, ts_ms, session_ref) VALUES (?, ?, ?, 0, ?)",
            arguments: [id, ordinal, kind, ref + 1])
        }
      }
      let orphan =
        "INSERT INTO violations (session_id, ordinal, kind, ts_ms, session_ref) VALUES ('aa', 0, 'flash', 0, ?)"
      try db.execute(sql: orphan, arguments: [sessions.count + 1])
    }
    return database
  }

  /// The fixture with only the kinds this build knows.
  static func makeKnownDatabase(_ directory: TemporaryDirectory) throws -> PullParityDatabase {
    let database = try makeDatabase(directory)
    try database.write { db in
      try db.execute(sql: "DELETE FROM violations WHERE kind = 'a_kind_from_a_newer_build'")
    }
    return database
  }

  @Test func eachSessionCarriesTheKindsOfItsOwnViolations() throws {
    let directory = try TemporaryDirectory()
    let sessions = try ReportQueries(try Self.makeKnownDatabase(directory)).sessions(SessionFilter())
    #expect(sessions.map { Array($0.sessionID.utf8) } == Self.sessions.map { Array($0.0.utf8) })
    for (session, (id, _, kinds)) in zip(sessions, Self.sessions) {
      let known = ViolationKinds(kinds: kinds.compactMap(ViolationKind.init(rawValue:)))
      #expect(session.violationKinds == known, "\(Array(id.utf8))")
    }
  }

  /// A kind this build does not know (a newer build's, or an edit) is an error naming the table,
  /// the column and the value: dropped, its sessions would count as not breaking any rule.
  @Test func aViolationKindThisBuildDoesNotKnowIsAnError() throws {
    let directory = try TemporaryDirectory()
    let queries = ReportQueries(try Self.makeDatabase(directory))
    let reads: [(String, () throws -> Void)] = [
      ("sessions", { _ = try queries.sessions(SessionFilter()) }),
      ("violations", { _ = try queries.violations(SessionFilter()) }),
      ("a session's violations", { _ = try queries.violations(ofSession: 1) }),
    ]
    for (name, read) in reads {
      let error = try #require(throws: StoreError.self, "\(name)") { try read() }
      #expect(
        error.description.hasPrefix(
          "reading violations.kind: unknown value \"a_kind_from_a_newer_build\"; this build knows "),
        "\(name): \(error)")
    }
  }

  /// The same for a session's outcome (once read as `incomplete`) and trigger (once read as none).
  @Test(arguments: [
    (#"UPDATE sessions SET outcome = 'teleported' WHERE session_id = 'ab'"#, "sessions.outcome", "teleported"),
    (#"UPDATE sessions SET "trigger" = 'telepathy' WHERE session_id = 'a'"#, "sessions.trigger", "telepathy"),
  ])
  func anOutcomeOrTriggerThisBuildDoesNotKnowIsAnError(sql: String, column: String, value: String) throws {
    let directory = try TemporaryDirectory()
    let database = try Self.makeKnownDatabase(directory)
    try database.write { try $0.execute(sql: sql) }
    let error = try #require(throws: StoreError.self) { try ReportQueries(database).sessions(SessionFilter()) }
    #expect(error.description.hasPrefix("reading \(column): unknown value \"\(value)\"; this build knows "))
    if column == "sessions.outcome" {
      let counted = try #require(throws: StoreError.self) { try ReportQueries(database).outcomeCounts() }
      #expect(counted.description.hasPrefix("reading sessions.outcome: unknown value \"teleported\""), "\(counted)")
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var platform: String?
    var kind: ViolationKind?
    var limit: Int
    var ids: [String]
    var testDescription: String { "\(platform ?? "all") \(kind?.rawValue ?? "any") \(limit)" }
  }

  /// Distinct ids in byte order, of the selected sessions only, of known kinds only.
  static let cases: [Case] = [
    Case(platform: nil, kind: .flash, limit: 3, ids: ["ab"]),
    Case(platform: nil, kind: nil, limit: 9, ids: ["ab", "abc", "e\u{301}", "z"]),
    Case(platform: nil, kind: nil, limit: 2, ids: ["ab", "abc"]),
    Case(platform: "pwa", kind: nil, limit: 9, ids: ["ab", "abc", "e\u{301}"]),
    Case(platform: "pwa", kind: .lateHide, limit: 3, ids: []),
  ]

  @Test(arguments: cases)
  func firstViolatingSessions(_ c: Case) throws {
    let directory = try TemporaryDirectory()
    let ids = try ReportQueries(try Self.makeDatabase(directory))
      .violatingSessions(SessionFilter(platform: c.platform), kind: c.kind, limit: c.limit)
    #expect(ids.map { Array($0.id.utf8) } == c.ids.map { Array($0.utf8) })
    // Each comes with its own ref (first-seen order in `sessions` above, from 1).
    let refs = try Dictionary(
      uniquePairs: Self.sessions.enumerated().map { (Array($1.0.utf8), Int64($0 + 1)) })
    #expect(ids.map(\.ref) == ids.map { refs[Array($0.id.utf8)] })
  }
}
