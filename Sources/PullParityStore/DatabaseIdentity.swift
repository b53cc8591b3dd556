import Foundation
internal import GRDB
internal import PullParitySchema

/// Whether a file given as the database is one PullParity may use: it refuses, before anything
/// is changed, a file that is not SQLite at all and a SQLite database of another program (which
/// would otherwise be switched to WAL and given migration tables before the ingest fails).
enum DatabaseIdentity {
  /// Refuses names that SQLite would take for a temporary or in-memory database (the data
  /// would be thrown away when the command ends), and a directory, which SQLite reports only as
  /// a disk I/O error.
  static func checkName(_ path: String) throws {
    if path.isEmpty {
      throw StoreError(
        context: "--db", message: "an empty name opens a temporary database that is thrown away; name a file")
    }
    if path == ":memory:" {
      throw StoreError(
        context: "--db", message: "\(path) is an in-memory database, thrown away when the command ends; name a file")
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw StoreError(context: "--db", message: "\(path) is a directory; name a database file (in it or elsewhere)")
    }
  }

  /// Refuses an existing non-empty file that does not start with SQLite's header.
  static func checkHeader(_ path: String) throws {
    guard let handle = FileHandle(forReadingAtPath: path) else { return }
    defer { try? handle.close() }
    let start = (try? handle.read(upToCount: header.count)) ?? Data()
    guard start.isEmpty || Array(start) == header else {
      throw StoreError(
        context: "opening \(path)", message: "not a SQLite database; refusing to use it (name another --db file)")
    }
  }

  private static let header = Array("SQLite format 3\0".utf8)

  /// Refuses a SQLite database with tables that are not PullParity's. An empty database is
  /// fine for a writer (it is about to be created); a reader has nothing to read in it.
  static func checkTables(_ db: Database, path: String, forWriting: Bool) throws {
    let tables = try String.fetchAll(
      db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    if tables.isEmpty {
      guard forWriting else {
        throw StoreError(context: "opening \(path)", message: "the database is empty (run `pullparity ingest` first)")
      }
      return
    }
    let ours = try tables.contains("grdb_migrations") && hasFirstMigration(db)
    guard ours else {
      let listed = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
      throw StoreError(
        context: "opening \(path)",
        message: "a SQLite database of another program (tables: \(listed)), not a PullParity one; "
          + "refusing to change it (name another --db file)")
    }
  }

  private static func hasFirstMigration(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT count(*) > 0 FROM grdb_migrations WHERE identifier = ?",
      arguments: [Schema.migrations[0].name]) ?? false
  }
}
