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

  /// The file is damaged or cannot be read: SQLITE_CORRUPT, SQLITE_NOTADB or SQLITE_IOERR.
  /// Such an error always fails the command, wherever it appears: an ingest that wrote around
  /// a damaged page and said nothing left a file every report then failed on.
  package var isDamage: Bool {
    // SQLITE_IOERR 10, SQLITE_CORRUPT 11, SQLITE_NOTADB 26 (sqlite3.h).
    primaryCode.map { [10, 11, 26].contains($0) } ?? false
  }

  /// Writing failed (SQLITE_FULL, or SQLITE_IOERR_WRITE, _FSYNC, _TRUNCATE: a full disk, a file
  /// size limit, a failing device): the transaction rolled back and the file holds what was
  /// committed before it, so "damaged" would send a user to restore a copy for nothing.
  package var isWriteFailure: Bool {
    guard let resultCode else { return false }
    // SQLITE_FULL 13; SQLITE_IOERR 10 with _WRITE 3, _FSYNC 4, _DIR_FSYNC 5, _TRUNCATE 6 (sqlite3.h).
    return resultCode == 13 || [3, 4, 5, 6].map { 10 | $0 << 8 }.contains(resultCode)
  }

  package var description: String {
    var text = "\(context): \(message)"
    if let resultCode { text += " (SQLite result code \(resultCode))" }
    if let sql { text += " (SQL: \(sql.split(separator: "\n").joined(separator: " ")))" }
    if isWriteFailure {
      text +=
        "\nThe file could not be written (a full disk, a file size limit or a failing device): the transaction"
        + " was rolled back and what was committed before it is intact. Make room and run the same command again."
    } else if isDamage {
      text +=
        "\nThe database file is damaged or unreadable: check it with `sqlite3 FILE 'PRAGMA integrity_check'`"
        + " and restore a copy, or ingest the logs into a new file."
    }
    return text
  }
}
