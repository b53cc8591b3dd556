import Foundation
internal import GRDB
internal import PullParitySchema
import Synchronization

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
    let applied = try checkMigrations(db, path: path)
    try checkObjects(db, path: path, migratedUpTo: applied)
  }

  /// Refuses a file that a newer PullParity migrated: this binary would read its tables
  /// without the columns it does not know (kinds and outcomes it does not know are errors when
  /// read, `StoredEnumValue`) and write rows the newer one's invariants do not hold for. Returns how many of this binary's migrations the file has, in order.
  private static func checkMigrations(_ db: Database, path: String) throws -> Int {
    let known = Schema.migrations.map(\.name)
    let recorded = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
    let unknown = recorded.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      throw StoreError(
        context: "opening \(path)",
        message: "the file was migrated by a newer PullParity (schema \(unknown.joined(separator: ", "))); this "
          + "pullparity knows the schema up to \(known.last ?? "none") and refuses to read or change it: use the "
          + "newer pullparity")
    }
    return (known.lastIndex { recorded.contains($0) } ?? -1) + 1
  }

  /// Refuses a file in which an object named like one of PullParity's is not what its
  /// migrations made it: `sessions` as a (recursive) view hung `report --from-sessions` and
  /// `session`. What they made is found by running the same migrations on an empty database
  /// in memory (so a new migration is checked with no list to update); objects PullParity does
  /// not name (a dashboard's own views) are left alone.
  private static func checkObjects(_ db: Database, path: String, migratedUpTo count: Int) throws {
    let expected = try objects(afterMigrations: count)
    let found = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    for row in found {
      let (type, name): (String, String) = (row["type"], row["name"])
      guard let wanted = expected[name], wanted != type else { continue }
      throw StoreError(
        context: "opening \(path)",
        message: "\(name) is a \(type) where PullParity's schema has a \(wanted): not a database PullParity wrote; "
          + "refusing to use it")
    }
  }

  /// Name → type (table, view, trigger, index) of what the first `count` migrations create,
  /// computed once per count.
  private static func objects(afterMigrations count: Int) throws -> [String: String] {
    try madeObjects.withLock { cache in
      if let objects = cache[count] { return objects }
      let queue = try DatabaseQueue()
      if count > 0 { try PullParityDatabase.migrator.migrate(queue, upTo: Schema.migrations[count - 1].name) }
      let objects = try queue.read { db in
        Dictionary(
          try Row.fetchAll(db, sql: "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").map {
            ($0["name"] as String, $0["type"] as String)
          }, uniquingKeysWith: { first, _ in first })
      }
      cache[count] = objects
      return objects
    }
  }

  private static let madeObjects = Mutex<[Int: [String: String]]>([:])

  private static func hasFirstMigration(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT count(*) > 0 FROM grdb_migrations WHERE identifier = ?",
      arguments: [Schema.migrations[0].name]) ?? false
  }
}
