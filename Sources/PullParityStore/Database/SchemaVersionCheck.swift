internal import GRDB
internal import PullParitySchema

/// A read-only command never migrates, so a file an older release wrote lacks what this one
/// reads (the v1.1 columns of schema 9, say): it is refused with the way to upgrade it, instead
/// of an SQL error about a missing column halfway through a report.
enum SchemaVersionCheck {
  static func requireCurrent(_ queue: DatabaseQueue, path: String) throws {
    // First: a conversion a kill interrupted is what the next write finishes before the
    // migrations after it, so that is what to say about such a file.
    try requireConverted(queue, path: path)
    let all = try queue.read { db in try PullParityDatabase.migrator.appliedMigrations(db) }
    let applied = all.filter { !Schema.notNeededToRead.contains($0) }
    let known = PullParityDatabase.migrator.migrations.filter { !Schema.notNeededToRead.contains($0) }
    // Only an older file is this check's business: a newer one is refused where it is opened.
    guard applied.count < known.count, known.starts(with: applied) else { return }
    throw StoreError(
      context: "opening \(path)",
      // The file's schema is its last migration, one not needed to read included (a schema 10
      // file was named by 0009 when those were left out).
      message: "written by an older PullParity (schema \(all.last ?? "none"); this one reads "
        + "\(known.last ?? "")), which a read-only command does not upgrade: run "
        + "`pullparity replay --db \(path)` once to upgrade it and derive its sessions with today's rules")
  }

  /// A file whose conversion to schema 11 a kill interrupted holds some events in blocks and
  /// the rest in `events_to_convert`: refused, rather than read as if half its events were all.
  private static func requireConverted(_ queue: DatabaseQueue, path: String) throws {
    let left = try queue.read { db -> Int? in
      guard try RawEventConversion.isPending(db) else { return nil }
      return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(RawEventConversion.pendingTable)")
    }
    guard let left else { return }
    throw StoreError(
      context: "opening \(path)",
      message: "its conversion to schema 11 (raw events in compressed blocks) was interrupted with \(left) events "
        + "still to convert, which a read-only command does not do: the next write (an ingest, or "
        + "`pullparity replay --db \(path)`) goes on where it stopped")
  }
}
