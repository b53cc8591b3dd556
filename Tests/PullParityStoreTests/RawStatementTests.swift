import GRDB
import Testing

@testable import PullParityStore

/// A bind SQLite refuses is an error with its context, the SQL and the result code when the
/// statement runs: never a statement stepped with NULL in its place, which `INSERT OR IGNORE`
/// into a NOT NULL column turned into a silently ignored row.
@Suite struct RawStatementTests {
  @Test func aFailedBindFailsTheStatementWithItsCode() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t (x TEXT NOT NULL)")
      let statement = try RawStatement(db, "INSERT OR IGNORE INTO t (x) VALUES (?)")
      statement.bind(2, "no such parameter")
      #expect {
        try statement.execute("storing x")
      } throws: { error in
        guard let error = error as? StoreError else { return false }
        return error.resultCode == 25 && error.context == "storing x"
          && error.message.contains("binding parameter 2") && error.sql == "INSERT OR IGNORE INTO t (x) VALUES (?)"
          && error.description.contains("SQLite result code 25")
      }
      // The failure is reported once; the statement is usable again.
      statement.bind(1, "stored")
      #expect(try statement.executeCountingChanges("storing x") == 1)
    }
  }
}
