import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Sessions are found by `session_key` (schema version 8): a UUIDv7 session id by its time, any
/// other in the session key epoch that was open when it was first stored, and a session stored
/// in a closed epoch is still found, so it is never stored twice. Epochs of 2 keys here.
@Suite struct SessionKeyTests {
  static let day = 86_400_000.0

  func keys(_ db: Database) throws -> [String: Int64] {
    try Dictionary(
      uniquePairs: try Row.fetchAll(db, sql: "SELECT session_id, session_key FROM sessions").map {
        ($0["session_id"] as String, $0["session_key"] as Int64)
      })
  }

  func filters(_ db: Database) throws -> [String] {
    try Row.fetchAll(db, sql: "SELECT epoch, keys FROM session_key_filters ORDER BY epoch").map {
      "\($0["epoch"] as Int64):\($0["keys"] as Int)"
    }
  }

  @Test func randomSessionsAreKeyedByEpochAndFoundInClosedOnes() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("sessions.sqlite"))
    let epochs = KeyEpochs(.sessions, capacity: 2)
    let v7 = EventKeyTests.v7(EventKeyTests.millis, 1)
    let ids = ["r1", "r2", v7, "r3", "r4", "r5"]
    try database.write { db in
      let tx = try IngestTransaction(db, sessionEpochs: epochs)
      for (index, id) in ids.enumerated() {
        #expect(try tx.sessionRef(of: id) == nil)
        try tx.save(SessionRowWriteTests().row(id, startedAt: 20_000 * Self.day), violations: [], ref: Int64(index + 1))
      }
      // r2 filled epoch 1 and r4 epoch 2, each closing at once; the UUIDv7 counts in none.
      #expect(try filters(db) == ["1:2", "2:2"])
      #expect(
        try keys(db) == [
          "r1": KeyEpochTests.key("r1", epoch: 1), "r2": KeyEpochTests.key("r2", epoch: 1), v7: EventKey.of(v7),
          "r3": KeyEpochTests.key("r3", epoch: 2), "r4": KeyEpochTests.key("r4", epoch: 2),
          "r5": KeyEpochTests.key("r5", epoch: 3),
        ])
    }
    // Another run, with filters of its own: every session is found where it was stored.
    try database.write { db in
      let tx = try IngestTransaction(db, sessionEpochs: KeyEpochs(.sessions, capacity: 2))
      #expect(try ids.map { try tx.sessionRef(of: $0) } == [1, 2, 3, 4, 5, 6])
      #expect(try tx.sessionRef(of: "r6") == nil)
      // An update keeps the key: the session stays where lookups find it.
      try tx.save(SessionRowWriteTests().row("r1", startedAt: 20_001 * Self.day), violations: [], ref: 1)
      #expect(try keys(db)["r1"] == KeyEpochTests.key("r1", epoch: 1))
    }
  }

  /// The write-ahead log of a day stays small only if nothing is keyed by the random id alone.
  @Test func noIndexOfSessionsOrViolationsLeadsWithTheSessionID() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("indexes.sqlite"))
    let leading = try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT l.name AS name, i.name AS column FROM pragma_index_list('sessions') l, pragma_index_info(l.name) i
          WHERE i.seqno = 0
          UNION ALL
          SELECT 'violations key', name FROM pragma_table_info('violations') WHERE pk = 1
          ORDER BY 1
          """
      ).map { "\($0["name"] as String): \($0["column"] as String)" }
    }
    #expect(
      leading == [
        "sessions_awaiting_judgement: app", "sessions_by_app_platform_end: app", "sessions_by_install: install_id",
        "sessions_by_key: session_key",
        "sessions_by_start: started_at_ms", "violations key: session_ref",
      ])
  }

  /// A version 4 file's sessions keep their rows, get the key their id gives, and stay
  /// findable; their violations are joined to them by ref; the random ones make epoch 0.
  @Test func upgradingKeysStoredSessionsAndKeepsThemFindable() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v4.sqlite")
    let v7 = EventKeyTests.v7(EventKeyTests.millis, 2)
    let queue = try OldSchemaFile.create(path, version: 4)
    try queue.write { db in
      for (ref, id) in [(1, "r1"), (2, v7), (3, "r2")] {
        try db.execute(
          sql: """
            INSERT INTO sessions (session_ref, session_id, app, profile, profile_version, platform, empty, outcome,
                                  final_state, violation_count, event_count, started_at_ms, ended_at_ms)
            VALUES (?, ?, 'padel', 'padel', 1, 'ios', 0, 'completed', 'done', 0, 3, 5, 9)
            """, arguments: [ref, id])
      }
      for (id, ordinal, kind) in [("r2", 0, "flash"), (v7, 0, "flash"), ("r2", 1, "late_hide")] {
        try db.execute(
          sql: "INSERT INTO violations (session_id, ordinal, kind, ts_ms) VALUES (?, ?, ?, 7)",
          arguments: [id, ordinal, kind])
      }
    }
    try queue.close()

    let database = try PullParityDatabase(path: path)
    try database.write { db in
      #expect(try keys(db) == ["r1": EventKey.of("r1"), v7: EventKey.of(v7), "r2": EventKey.of("r2")])
      #expect(try filters(db) == ["0:3"])
      let violations = try Row.fetchAll(
        db, sql: "SELECT session_ref, ordinal, session_id, kind FROM violations ORDER BY session_ref, ordinal"
      ).map { "\($0[0] as Int64) \($0[1] as Int) \($0[2] as String) \($0[3] as String)" }
      #expect(violations == ["2 0 \(v7) flash", "3 0 r2 flash", "3 1 r2 late_hide"])
      let affected = try Row.fetchAll(db, sql: "SELECT kind, sessions_affected FROM violation_counts ORDER BY kind")
        .map { "\($0[0] as String) \($0[1] as Int)" }
      #expect(affected == ["flash 2", "late_hide 1"])
      let tx = try IngestTransaction(db)
      #expect(try ["r1", v7, "r2", "r3"].map { try tx.sessionRef(of: $0) } == [1, 2, 3, nil])
      #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
    }
  }
}
