/// A database failure with what was being done and the SQL involved, so that a message such as
/// "database is locked" comes with the file and the statement.
package struct StoreError: Error, CustomStringConvertible, Sendable {
  package var context: String
  package var message: String
  package var sql: String?
  /// SQLite's (extended) result code, when SQLite gave one.
  package var resultCode: Int32?

  package init(context: String, message: String, sql: String? = nil, resultCode: Int32? = nil) {
    self.context = context
    self.message = message
    self.sql = sql
    self.resultCode = resultCode
  }

  /// SQLite's primary result code (`SQLITE_BUSY`, …), without the extended bits.
  package var primaryCode: Int32? { resultCode.map { $0 & 0xff } }

  package var description: String {
    var text = "\(context): \(message)"
    if let resultCode { text += " (SQLite result code \(resultCode))" }
    if let sql { text += " (SQL: \(sql.split(separator: "\n").joined(separator: " ")))" }
    return text
  }
}
