import Foundation
public import GRDB
import PullParitySchema

/// The SQLite file dashboards read: opened in WAL mode (a dashboard can read while an ingest
/// writes) and migrated forward on open from the SQL files in `schema/`.
public final class PullParityDatabase: Sendable {
  public let path: String
  let queue: DatabaseQueue

  /// Opens (creating if needed) and migrates the database at `path`.
  public init(path: String, readOnly: Bool = false) throws {
    self.path = path
    var configuration = Configuration()
    configuration.readonly = readOnly
    configuration.busyMode = .timeout(5)
    // The REFERENCES clauses document the joins (Datasette draws them) but are not enforced:
    // ingest writes parents before children by construction, and enforcement cost ~10 % of
    // ingest time (it also forces a statement journal on multi-row inserts).
    configuration.foreignKeysEnabled = false
    configuration.label = "pullparity"
    if readOnly {
      configuration.prepareDatabase { db in
        // Reports read whole tables: map the file instead of copying it page by page.
        try db.execute(sql: "PRAGMA mmap_size = 1073741824")
        try db.execute(sql: "PRAGMA cache_size = -65536")  // 64 MiB
      }
    }
    if !readOnly {
      configuration.prepareDatabase { db in
        // WAL keeps readers unblocked; NORMAL sync is durable against a crash of the process
        // (what ingest promises) without an fsync per transaction.
        // 32 KiB pages (set before the first table exists; a no-op on existing files): measured
        // on the 1M-event benchmark, fewer and larger WAL writes beat 4 KiB pages by ~25 %,
        // while 64 KiB pages made every index insert move too many bytes.
        try db.execute(sql: "PRAGMA page_size = 32768")
        try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        // Enough for the duplicate index of a few tens of millions of events to stay in memory.
        try db.execute(sql: "PRAGMA cache_size = -262144")  // 256 MiB
        // Checkpoint the WAL into the file every 128 MiB rather than every 4 MiB: index pages
        // that change in every transaction are copied back once per checkpoint, not once per
        // transaction. Measured: −15 % ingest time on the 1M-event benchmark.
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 4000")
      }
    }
    if readOnly, !FileManager.default.fileExists(atPath: path) {
      throw StoreError(context: "opening \(path)", message: "no such database file (run `pullparity ingest` first)")
    }
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
      if !readOnly { try Self.migrator.migrate(queue) }
    } catch let error as DatabaseError {
      throw StoreError(context: "opening \(path)", message: error.message ?? "\(error)", sql: error.sql)
    }
  }

  /// Every file of `schema/`, in order. Shipped migrations are frozen.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for migration in Schema.migrations {
      migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
    }
    return migrator
  }

  /// Names of the migrations applied to this file.
  public func appliedMigrations() throws -> [String] {
    try read { db in try Self.migrator.appliedMigrations(db) }
  }

  public func read<T>(_ body: (Database) throws -> T) throws -> T {
    try wrap("reading \(path)") { try queue.read(body) }
  }

  /// One transaction: all of `body` is committed, or none of it.
  public func write<T>(_ body: (Database) throws -> T) throws -> T {
    try wrap("writing \(path)") { try queue.write(body) }
  }

  private func wrap<T>(_ context: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as DatabaseError {
      throw StoreError(context: context, message: error.message ?? "\(error)", sql: error.sql)
    }
  }
}
