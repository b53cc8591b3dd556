package import GRDB

/// The database `pullparity load` writes a distributed run into.
package enum LoadTarget {
  /// A run's tables are loaded whole into a new file: merging them with stored events would
  /// need the duplicate and re-derivation rules of `ingest`, which is what ingest is for.
  package static func requireEmpty(_ db: Database) throws {
    let sql = "SELECT (SELECT count(*) FROM event_keys) AS events, (SELECT count(*) FROM sessions) AS sessions"
    guard let row = try Row.fetchOne(db, sql: sql) else { return }
    let events: Int = row["events"]
    let sessions: Int = row["sessions"]
    guard events == 0, sessions == 0 else {
      throw StoreError(
        context: "loading a distributed run",
        message: "the database already holds \(events) events and \(sessions) sessions; load needs a new file "
          + "(to add logs to it, ingest them)", sql: sql)
    }
  }
}
