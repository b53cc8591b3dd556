/// A database failure with what was being done and the SQL involved, so that a message such as
/// "database is locked" comes with the file and the statement.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var context: String
  public var message: String
  public var sql: String?
  /// SQLite's (extended) result code, when SQLite gave one.
  public var resultCode: Int32?

  public init(context: String, message: String, sql: String? = nil, resultCode: Int32? = nil) {
    self.context = context
    self.message = message
    self.sql = sql
    self.resultCode = resultCode
  }

  /// SQLite's primary result code (`SQLITE_BUSY`, …), without the extended bits.
  public var primaryCode: Int32? { resultCode.map { $0 & 0xff } }

  public var description: String {
    var text = "\(context): \(message)"
    if let resultCode { text += " (SQLite result code \(resultCode))" }
    if let sql { text += " (SQL: \(sql.split(separator: "\n").joined(separator: " ")))" }
    return text
  }
}
