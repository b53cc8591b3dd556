import Foundation
package import GRDB
import GRDBSQLite
internal import PullParitySchema

/// The SQLite file dashboards read: opened in WAL mode (a dashboard can read while an ingest
/// writes) and migrated forward on open from the SQL files in `schema/`.
///
/// Several processes may use one file at once: writers open and migrate one at a time (a lock
/// in `<database>-lock`), and every wait for another process (its migration, its write
/// transaction) is bounded by `lockTimeout`, after which the command fails with a message that
/// says so instead of SQLite's "database is locked".
package final class PullParityDatabase: Sendable {
  package let path: String
  /// Set when the file could only be read as it is on disk (see `ImmutableRead`): tell the user.
  package let note: String?
  /// Seconds to wait for another process before giving up.
  package let lockTimeout: Double
  /// What the ledger, the ingest and the replay read the time from.
  package let clock: PipelineClock
  let queue: DatabaseQueue
  /// Writers only: the migration lock and the locks that tell live runs from killed ones.
  let lockFile: DatabaseLockFile?

  /// How long a command waits for another process by default: longer than an ingest's
  /// transaction (seconds) by far, short enough that a stuck process is reported.
  package static let defaultLockTimeout: Double = 60

  /// SQLite's page cache in MiB unless told otherwise: a writer keeps the newest pages of the
  /// duplicate index and of the tables it appends to; a report reads tables once, mapped.
  package static let defaultCacheMiB = (writer: 256, reader: 64)

  /// Opens (creating if needed) and migrates the database at `path`; `readOnly` opens an
  /// existing one for reading, immutably when this user may not write it. `cacheMiB`: the page
  /// cache, the memory an ingest holds beyond its chunks in flight. A writer first finishes the
  /// conversion of an older file's events (`RawEventConversion`), telling `conversionProgress`.
  package init(
    path: String, readOnly: Bool = false, lockTimeout: Double = defaultLockTimeout, cacheMiB: Int? = nil,
    clock: PipelineClock = .system, conversionProgress: ((RawEventConversion.Progress) -> Void)? = nil
  ) throws {
    try DatabaseIdentity.checkName(path)
    self.path = path
    self.lockTimeout = lockTimeout
    self.clock = clock
    if readOnly {
      (queue, note) = try Self.openForReading(
        path, lockTimeout: lockTimeout, cacheMiB: cacheMiB ?? Self.defaultCacheMiB.reader)
      lockFile = nil
      return
    }
    try DatabaseIdentity.checkHeader(path)
    let lockFileExisted = FileManager.default.fileExists(atPath: DatabaseLockFile.path(forDatabase: path))
    let lockFile = try DatabaseLockFile(databasePath: path)
    guard try lockFile.lock(byte: 0, timeout: lockTimeout) else {
      throw StoreError(context: "opening \(path)", message: Self.busyMessage(lockTimeout, doing: "opening it"))
    }
    defer { lockFile.unlock(byte: 0) }
    do {
      queue = try Self.open(
        Self.fileLocation(path),
        Self.writerConfiguration(path, lockTimeout: lockTimeout, cacheMiB: cacheMiB ?? Self.defaultCacheMiB.writer),
        lockTimeout: lockTimeout,
        migrate: true, conversionProgress: conversionProgress)
    } catch let error as StoreError {
      if !lockFileExisted { try? FileManager.default.removeItem(atPath: lockFile.path) }
      throw error
    }
    note = nil
    self.lockFile = lockFile
    try IngestLedger.markDeadRunsInterrupted(self, lockFile: lockFile)
  }

  private static func openForReading(
    _ path: String, lockTimeout: Double, cacheMiB: Int
  ) throws -> (DatabaseQueue, String?) {
    guard FileManager.default.fileExists(atPath: path) else {
      throw StoreError(context: "opening \(path)", message: "no such database file (run `pullparity ingest` first)")
    }
    try DatabaseIdentity.checkHeader(path)
    let configuration = readerConfiguration(path, lockTimeout: lockTimeout, cacheMiB: cacheMiB)
    if !ImmutableRead.isNeeded(path) {
      do {
        let queue = try open(fileLocation(path), configuration, lockTimeout: lockTimeout, migrate: false)
        try SchemaVersionCheck.requireCurrent(queue, path: path)
        return (queue, nil)
      } catch let error as StoreError where [SQLITE_READONLY, SQLITE_CANTOPEN].contains(error.primaryCode) {
        // No -shm file this user can create or use: read the main file as it is.
      }
    }
    let queue = try open(ImmutableRead.uri(path), configuration, lockTimeout: lockTimeout, migrate: false)
    try SchemaVersionCheck.requireCurrent(queue, path: path)
    return (queue, ImmutableRead.note(path))
  }

  /// `location` is a file name or a `file:` URI.
  private static func open(
    _ location: String, _ configuration: Configuration, lockTimeout: Double, migrate: Bool,
    conversionProgress: ((RawEventConversion.Progress) -> Void)? = nil
  ) throws -> DatabaseQueue {
    let start = ContinuousClock.now
    do {
      let queue = try DatabaseQueue(path: location, configuration: configuration)
      if migrate {
        // Up to schema 11, its conversion (committed batch by batch, so it is not one of the
        // migrator's transactions), then what follows: a later migration finds the events
        // converted. A file already past 11 was converted before it got there.
        let migrator = Self.migrator
        let applied = try queue.read { db in try migrator.appliedMigrations(db) }
        let known = Schema.migrations.map(\.name)
        let conversion = known.firstIndex(of: RawEventConversion.name)!
        if applied.allSatisfy({ (known.firstIndex(of: $0) ?? 0) <= conversion }) {
          try migrator.migrate(queue, upTo: RawEventConversion.name)
          try RawEventConversion.finish(queue, progress: conversionProgress)
        }
        try migrator.migrate(queue)
      }
      return queue
    } catch let error as DatabaseError {
      throw storeError(error, context: "opening \(location)", lockTimeout: lockTimeout, waited: start.secondsAgo)
    }
  }

  /// SQLite reads a name starting with "file:" as a URI: name such a file by its path instead.
  private static func fileLocation(_ path: String) -> String {
    path.hasPrefix("file:") ? "./" + path : path
  }

  private static func readerConfiguration(_ path: String, lockTimeout: Double, cacheMiB: Int) -> Configuration {
    var configuration = baseConfiguration(lockTimeout: lockTimeout)
    configuration.readonly = true
    configuration.prepareDatabase { db in
      try DatabaseIdentity.checkTables(db, path: path, forWriting: false)
      // Read through the page cache, not mapped: at 10M events a mapped file put every page a
      // report touched in its resident memory (the HTML report at 111 MB against 92 MB), and
      // reading every session was no faster mapped (1.72–1.78 s against 1.39–1.43 s).
      try db.execute(sql: "PRAGMA cache_size = \(-1024 * cacheMiB)")
    }
    return configuration
  }

  private static func writerConfiguration(_ path: String, lockTimeout: Double, cacheMiB: Int) -> Configuration {
    var configuration = baseConfiguration(lockTimeout: lockTimeout)
    configuration.prepareDatabase { db in
      // Before anything changes the file: is it ours (or empty)?
      try DatabaseIdentity.checkTables(db, path: path, forWriting: true)
      // WAL keeps readers unblocked; NORMAL sync is durable against a crash of the process
      // (what ingest promises) without an fsync per transaction.
      // 32 KiB pages (set before the first table exists; a no-op on existing files): measured
      // on the 1M-event benchmark, fewer and larger WAL writes beat 4 KiB pages by ~25 %,
      // while 64 KiB pages made every index insert move too many bytes.
      try db.execute(sql: "PRAGMA page_size = 32768")
      try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
      // The default holds the duplicate index of a few tens of millions of random ids; with
      // time-ordered ids (EventKey) only its newest pages are touched, and far less will do.
      try db.execute(sql: "PRAGMA cache_size = \(-1024 * cacheMiB)")
      try db.execute(sql: "PRAGMA wal_autocheckpoint = \(autocheckpointFrames)")
    }
    return configuration
  }

  /// Writers checkpoint the WAL every 4,000 frames, 128 MiB of 32 KiB pages, rather than
  /// SQLite's 1,000: index pages that change in every transaction are copied back once per
  /// checkpoint, not once per transaction (measured −15 % on the 1M-event benchmark). Ingest
  /// checkpointed on a thread of its own from schema 8 to 11, when a day wrote about 1 GB of log;
  /// with raw lines in compressed blocks that bought nothing measurable (bench/README.md, "The
  /// write path at schema 11"), and it went.
  static let autocheckpointFrames = 4000

  private static func baseConfiguration(lockTimeout: Double) -> Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(lockTimeout)
    // The REFERENCES clauses document the joins (Datasette draws them) but are not enforced:
    // ingest writes parents before children by construction, and enforcement cost ~10 % of
    // ingest time (it also forces a statement journal on multi-row inserts).
    configuration.foreignKeysEnabled = false
    configuration.label = "pullparity"
    return configuration
  }

  /// Every file of `schema/`, in order. Shipped migrations are frozen.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for migration in Schema.migrations {
      migrator.registerMigration(migration.name) { db in
        switch migration.name {
        case EventKeyMigration.name:
          try EventKeyMigration.run(db, sql: migration.sql)
        case KeySpace.events.migrationName:
          try db.execute(sql: migration.sql)
          try KeySpace.eventsUntilVersion11.fillEpochZero(db)
        case RawEventConversion.name:
          try RawEventConversion.run(db, sql: migration.sql)
        case KeySpace.sessions.migrationName:
          try EventKeyMigration.withKeyFunction(db) { try db.execute(sql: migration.sql) }
          try KeySpace.sessions.fillEpochZero(db)
        default:
          try db.execute(sql: migration.sql)
        }
      }
    }
    return migrator
  }

  /// Names of the migrations applied to this file.
  package func appliedMigrations() throws -> [String] {
    try read { db in try Self.migrator.appliedMigrations(db) }
  }

  package func read<T>(_ body: (Database) throws -> T) throws -> T {
    try wrap("reading \(path)") { try queue.read(body) }
  }

  /// Starts copying the write-ahead log into the file beside the caller (`BackgroundCheckpoint`).
  package func startCheckpoint() -> BackgroundCheckpoint { BackgroundCheckpoint(path: Self.fileLocation(path)) }

  /// One transaction: all of `body` is committed, or none of it. It begins IMMEDIATE (GRDB's
  /// default for writes), so waiting for another writer happens at its start, bounded by
  /// `lockTimeout`.
  package func write<T>(_ body: (Database) throws -> T) throws -> T {
    try wrap("writing \(path)") { try queue.write(body) }
  }

  /// The chunks committed to this file, read on a connection of its own (an ingest's reading
  /// thread); nil when it cannot be opened.
  package func knownChunks() -> KnownChunks? {
    KnownChunks(location: Self.fileLocation(path), lockTimeout: lockTimeout)
  }

  /// Rewrites the file without its free pages (`retain --vacuum`), in at most about
  /// 2 × `vacuumCachePages` pages of memory whatever the file's size.
  package func vacuum() throws {
    try wrap("vacuuming \(path)") {
      try queue.writeWithoutTransaction { db in
        let cache = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0
        // In pages, not KiB: VACUUM's temporary copy turns a size in KiB into pages at SQLite's
        // default 4 KiB page, then holds pages of the file's 32 KiB, so the --cache-size a
        // writer has (256 MiB) took 9 times that (2.3 GB measured on a 2.6 GB file).
        try db.execute(sql: "PRAGMA cache_size = \(Self.vacuumCachePages)")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(cache)") }
        try db.execute(sql: "VACUUM")
      }
    }
  }

  /// VACUUM copies pages in order: a larger cache did not make it faster (87 MB file, 0.42 s
  /// with 256 pages, 0.51 s with 8 MiB given in KiB).
  static let vacuumCachePages = 256

  private func wrap<T>(_ context: String, _ body: () throws -> T) throws -> T {
    let start = ContinuousClock.now
    do {
      return try body()
    } catch let error as DatabaseError {
      throw Self.storeError(error, context: context, lockTimeout: lockTimeout, waited: start.secondsAgo)
    }
  }

  /// `waited`: seconds from the start of what failed, when known, so that a busy database is
  /// reported with the wait it really cost.
  static func storeError(
    _ error: DatabaseError, context: String, lockTimeout: Double, waited: Double? = nil
  ) -> StoreError {
    if error.resultCode == .SQLITE_BUSY {
      return StoreError(
        context: context, message: busyMessage(lockTimeout, waited: waited, doing: "waiting for it"), sql: error.sql,
        resultCode: error.extendedResultCode.rawValue)
    }
    return StoreError(
      context: context, message: error.message ?? "\(error)", sql: error.sql,
      resultCode: error.extendedResultCode.rawValue)
  }

  /// Says how long the command waited. SQLite gives up at once, whatever the timeout, where
  /// waiting could deadlock (two processes upgrading their locks on one file): "busy for 60 s"
  /// printed after half a second sent people looking for a process that hung.
  static func busyMessage(_ timeout: Double, waited: Double? = nil, doing: String) -> String {
    if let waited, waited < timeout - 1 {
      return "another process was using the database and SQLite gave up after \(String(format: "%.1f", waited)) s "
        + "while \(doing), without waiting the --lock-timeout of \(Int(timeout.rounded())) s (it does not wait where "
        + "two processes could wait for each other); try again"
    }
    return "another process kept the database busy for \(Int(timeout.rounded())) s while \(doing) "
      + "(an ingest writing, or a process that hangs); try again when it is done, or wait longer with --lock-timeout"
  }
}

extension ContinuousClock.Instant {
  /// Seconds from this instant until now.
  var secondsAgo: Double {
    let elapsed = ContinuousClock.now - self
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }
}
