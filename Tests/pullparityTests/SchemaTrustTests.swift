import Foundation
import GRDB
import PullParityTestSupport
import Testing

/// A database is used only when its schema is one this binary made or knows how to migrate: a
/// file a newer PullParity migrated, and a file whose tables are not what PullParity's
/// migrations made them, are refused by every command, with exit 2, before anything is read
/// or written.
@Suite struct SchemaTrustTests {
  static let commands: [[String]] = [
    ["report"], ["report", "--from-sessions"], ["report", "--format", "html"], ["qa"], ["session", "0c20f46e"],
    ["compare", "--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=ios"], ["runs"],
    ["quarantine"], ["replay"], ["ingest", "--quiet", RepositoryPaths.sampleEvents.path],
  ]

  /// The last migration this checkout ships, as `grdb_migrations` names it.
  static func newestKnownMigration() throws -> String {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: RepositoryPaths.root.appendingPathComponent("schema").path)
    return try #require(files.filter { $0.hasSuffix(".sql") }.max()).replacing(".sql", with: "")
  }

  /// A copy of the sample database, changed by `sql`; and the main file's bytes after it.
  static func sampleChanged(by sql: String, in dir: TemporaryDirectory) throws -> (path: String, bytes: Data) {
    let path = dir.path("changed.sqlite")
    try SampleDatabase.copy(to: path)
    try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: sql) }
    return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func run(_ command: [String], _ path: String) throws -> CommandRun {
    try CommandRun.pullparity([command[0], "--db", path] + command.dropFirst())
  }

  /// A migration this binary does not know: its outcomes and violation kinds would be misread,
  /// and its rows written without the newer release's columns.
  @Test(arguments: commands) func aFileOfANewerReleaseIsRefused(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let (path, before) = try Self.sampleChanged(
      by: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_a_newer_release')", in: dir)
    let run = try Self.run(command, path)
    let newest = try Self.newestKnownMigration()
    #expect(run.exitCode == 2, "\(run.stdout)")
    #expect(
      run.stderr.contains(
        "opening \(path): the file was migrated by a newer PullParity (schema 9999_from_a_newer_release); "
          + "this pullparity knows the schema up to \(newest) and refuses to read or change it"),
      "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// Objects named like PullParity's that are something else: a view over the sessions (a
  /// recursive one multiplies every session, and without its bound hung `report
  /// --from-sessions` and `session`), or a table standing in for a view.
  static let impostors: [(sql: String, says: String)] = [
    (
      """
      PRAGMA legacy_alter_table = ON; ALTER TABLE sessions RENAME TO sessions_kept;
      CREATE VIEW sessions AS WITH RECURSIVE copies(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM copies WHERE n < 50)
      SELECT s.* FROM sessions_kept s, copies
      """, "sessions is a view where PullParity's schema has a table"
    ),
    (
      """
      PRAGMA legacy_alter_table = ON; ALTER TABLE violations RENAME TO violations_kept;
      CREATE VIEW violations AS SELECT * FROM violations_kept
      """, "violations is a view where PullParity's schema has a table"
    ),
    (
      "DROP VIEW violation_counts; CREATE TABLE violation_counts (app TEXT)",
      "violation_counts is a table where PullParity's schema has a view"
    ),
  ]

  @Test(arguments: impostors.indices, commands)
  func objectsThatAreNotPullParitysAreRefused(impostor: Int, command: [String]) throws {
    let dir = try TemporaryDirectory()
    let (path, before) = try Self.sampleChanged(by: Self.impostors[impostor].sql, in: dir)
    let run = try Self.run(command, path)
    #expect(run.exitCode == 2, "\(run.stdout)")
    #expect(run.stderr.contains("opening \(path): \(Self.impostors[impostor].says)"), "\(run.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// What is not PullParity's own name is left alone: a dashboard's views and tables.
  @Test(arguments: [["report"], ["ingest", "--quiet", RepositoryPaths.sampleEvents.path]])
  func aDashboardsOwnObjectsAreFine(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let (path, _) = try Self.sampleChanged(
      by: "CREATE VIEW my_panel AS SELECT app, count(*) FROM sessions GROUP BY app; CREATE TABLE my_notes (t TEXT)",
      in: dir)
    let run = try Self.run(command, path)
    #expect(run.exitCode == 0, "\(run.stderr)")
  }

  /// A read-only command names the older file's schema by its last migration: a schema 10 file
  /// was named by 0009, its dashboard-only migration left out.
  @Test func aRefusalNamesTheFilesSchema() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v10.sqlite")
    _ = try OldSchemaFile.create(path, version: 10)
    let report = try CommandRun.pullparity(["report", "--db", path])
    #expect(report.exitCode == 2)
    #expect(report.stderr.contains("(schema 0010_dashboard_percentages;"), "\(report.stderr)")
  }
}
