import Foundation
import GRDB
import PullParityIngest
import PullParitySchema
import PullParityStore
import PullParityTestSupport
import Testing

@testable import PullParityReport

/// Schema 15: a day whose sessions were only added to has its digests extended by the new
/// sessions, and they are then what counting the day whole gives, byte for byte; a day with a
/// session changed by anyone (updated, deleted, inserted below the refs counted) is counted
/// whole.
@Suite struct DigestRefreshTests {
  /// Every digest row, every column, in one order.
  static func digestRows(_ database: PullParityDatabase) throws -> [Row] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT day, app, profile, profile_version, platform, "trigger", screen, app_version, sessions,
                 completed, cancelled, incomplete, abandoned, digest_version, digest,
                 (SELECT last_session_ref FROM digested_days d WHERE d.day = s.day) AS last_session_ref
          FROM session_digests s ORDER BY day, app, profile, profile_version, platform, "trigger", screen, app_version
          """)
    }
  }

  /// The digests every day gets when it is counted whole, as a refresh of a changed day does:
  /// left in place, with how many days that took.
  static func countedWhole(_ database: PullParityDatabase) throws -> (rows: [Row], days: DigestRefresh.Days) {
    try database.write { db in
      try db.execute(sql: "UPDATE digested_days SET changed = 1")
      try db.execute(sql: "INSERT OR IGNORE INTO stale_digest_days SELECT day FROM digested_days")
    }
    let days = try DigestRefresh.run(database)
    return (try digestRows(database), days)
  }

  static func ingest(_ logs: [String], into database: PullParityDatabase) throws -> DigestRefresh.Days? {
    let paths = logs.map { RepositoryPaths.sampleEvents.appendingPathComponent($0).path }
    let summary = try Ingestor(database: database, options: IngestOptions(toolVersion: "test"))
      .run(try InputCatalog.expand(paths))
    return summary.digests?.days
  }

  static func stale(_ database: PullParityDatabase) throws -> [Int64] {
    try database.read { db in
      try Int64.fetchAll(db, sql: "SELECT day FROM stale_digest_days UNION SELECT day FROM digested_days WHERE changed")
    }
  }

  /// Sample logs of other apps and installs, on the same days: the second ingest only adds
  /// sessions, and each day that had digests is extended.
  @Test(arguments: [
    ("phlock-ios.jsonl", "padel-pwa.jsonl"), ("padel-pwa.jsonl", "phlock-ios.jsonl"),
    ("padel-ios-1.jsonl", "padel-pwa.jsonl"),
  ])
  func aDayWithSessionsAddedIsExtendedToWhatCountingItWholeGives(first: String, then: String) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("extended.sqlite"))
    let firstDays = try #require(try Self.ingest([first], into: database))
    #expect(firstDays.extended == 0 && firstDays.whole > 0)
    let daysBefore = try database.read { db in
      try Set(Int64.fetchAll(db, sql: "SELECT DISTINCT day FROM session_digests"))
    }
    let days = try #require(try Self.ingest([then], into: database))
    let daysAfter = try database.read { db in
      try Set(Int64.fetchAll(db, sql: "SELECT DISTINCT day FROM session_digests"))
    }
    #expect(days.extended > 0)
    #expect(days.extended + days.whole == daysAfter.count - daysBefore.subtracting(daysAfter).count)
    #expect(days.whole == daysAfter.subtracting(daysBefore).count)
    #expect(try Self.stale(database) == [])
    let extended = try Self.digestRows(database)
    let whole = try Self.countedWhole(database)
    #expect(whole.days == DigestRefresh.Days(whole: daysAfter.count))
    #expect(extended == whole.rows)
  }

  /// Changes only a whole count gets right, by whoever makes them: each marks its day, and the
  /// refresh counts that day whole (a wrong extension would keep the digests as they were).
  @Test(arguments: [
    "UPDATE sessions SET outcome = 'incomplete' WHERE session_ref = (SELECT min(session_ref) FROM sessions WHERE outcome = 'completed')",
    "DELETE FROM sessions WHERE session_ref = (SELECT min(session_ref) FROM sessions)",
    """
    CREATE TEMP TABLE copied AS SELECT * FROM sessions WHERE session_ref = (SELECT max(session_ref) FROM sessions);
    UPDATE copied SET session_ref = -5, session_id = 'inserted-below-the-counted-refs';
    INSERT INTO sessions SELECT * FROM copied;
    """,
  ])
  func aDayWithASessionChangedIsCountedWhole(change: String) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("changed.sqlite"))
    _ = try Self.ingest(["phlock-ios.jsonl"], into: database)
    #expect(try Self.stale(database) == [])
    try database.write { db in try db.execute(sql: change) }
    let marked = try database.read { db in try Int64.fetchAll(db, sql: "SELECT day FROM digested_days WHERE changed") }
    #expect(marked.count == 1)
    #expect(try DigestRefresh.run(database) == DigestRefresh.Days(whole: 1))
    let refreshed = try Self.digestRows(database)
    #expect(try Self.countedWhole(database).rows == refreshed)
  }

  /// A day whose digests were counted before schema 15 (no `digested_days` row) is counted
  /// whole at its next refresh, and extended from then on.
  @Test func digestsWithoutTheirLastRefAreCountedWhole() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("old-digests.sqlite"))
    _ = try Self.ingest(["phlock-ios.jsonl"], into: database)
    try database.write { db in
      try db.execute(sql: "DELETE FROM digested_days")
    }
    let days = try #require(try Self.ingest(["padel-pwa.jsonl"], into: database))
    #expect(days.extended == 0)
    let again = try #require(try Self.ingest(["padel-ios-1.jsonl"], into: database))
    #expect(again.extended > 0)
    let extended = try Self.digestRows(database)
    #expect(try Self.countedWhole(database).rows == extended)
  }

  /// Only writers read `digested_days`: a read-only open takes a file of version 14 as it is
  /// (no replay asked for), and the next write adds version 15, counts the days whole once, and
  /// extends them from the write after.
  @Test func aFileOfVersion14IsReadAsItIsAndExtendedAfterItsNextWrite() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v14.sqlite")
    let written = try PullParityDatabase(path: path)
    _ = try Self.ingest(["phlock-ios.jsonl"], into: written)
    // Version 14 as it was: no `digested_days`, schema 8's triggers.
    let version8 = try #require(Schema.migrations.first { $0.name == "0008_session_keys" }).sql
    let first = try #require(version8.range(of: "CREATE TRIGGER sessions_stale_on_insert"))
    let last = try #require(
      version8.range(of: "END;", range: version8.range(of: "sessions_stale_on_delete")!.upperBound..<version8.endIndex))
    try written.write { db in
      try db.execute(sql: "DROP TABLE digested_days")
      for trigger in ["insert", "update", "delete"] { try db.execute(sql: "DROP TRIGGER sessions_stale_on_\(trigger)") }
      try db.execute(sql: String(version8[first.lowerBound..<last.upperBound]))
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0015_digest_appends'")
      // And what came after it.
      for table in ["gate_verdicts", "metric_percentiles", "daily_counts", "daily_violations", "dataset_runs"] {
        try db.execute(sql: "DROP TABLE \(table)")
      }
      try db.execute(
        sql: "DELETE FROM grdb_migrations WHERE identifier IN ('0016_dashboard_verdicts', '0017_dataset_runs')")
    }
    let reader = try PullParityDatabase(path: path, readOnly: true)
    #expect(try reader.appliedMigrations().last == "0014_block_checksums")
    #expect(try !ReportQueries(reader).sessions(SessionFilter()).isEmpty)
    let database = try PullParityDatabase(path: path)
    #expect(
      try database.appliedMigrations().suffix(3) == [
        "0015_digest_appends", "0016_dashboard_verdicts", "0017_dataset_runs",
      ])
    let next = try #require(try Self.ingest(["padel-pwa.jsonl"], into: database))
    #expect(next.extended == 0 && next.whole > 0)
    let after = try #require(try Self.ingest(["padel-ios-1.jsonl"], into: database))
    #expect(after.extended > 0)
    let extended = try Self.digestRows(database)
    #expect(try Self.countedWhole(database).rows == extended)
  }
}
