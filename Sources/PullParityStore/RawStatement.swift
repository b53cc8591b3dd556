import GRDB
import GRDBSQLite

/// A prepared statement driven through SQLite's C API. Used only on the ingest hot path, where
/// building GRDB argument arrays and Swift Strings for every event was the measured cost;
/// everything else goes through GRDB.
final class RawStatement {
  let sql: String
  private let handle: OpaquePointer
  private let connection: OpaquePointer

  init(_ db: Database, _ sql: String) throws {
    guard let connection = db.sqliteConnection else {
      throw StoreError(context: "preparing a statement", message: "the connection is closed", sql: sql)
    }
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw StoreError(
        context: "preparing a statement", message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
    self.sql = sql
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
  func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }
  func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
  func bind(_ index: Int32, _ value: Double?) {
    if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
  }
  func bind(_ index: Int32, _ value: Int?) {
    if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
  }
  func bind(_ index: Int32, _ value: Bool?) { bind(index, value.map { $0 ? 1 : 0 } as Int?) }

  func bind(_ index: Int32, _ value: String?) {
    guard var value else {
      sqlite3_bind_null(handle, index)
      return
    }
    value.withUTF8 { bytes in
      _ = sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
    }
  }

  /// Binds bytes already known to be UTF-8 as TEXT, or as a BLOB when `asBlob`.
  func bind(_ index: Int32, bytes: UnsafeRawBufferPointer, asBlob: Bool = false) {
    let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
    if asBlob {
      sqlite3_bind_blob(handle, index, base, Int32(bytes.count), sqliteTransient)
    } else {
      sqlite3_bind_text(
        handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
    }
  }

  /// Binds UTF-8 that stays valid until the statement is stepped, without copying it.
  func bindNoCopy(_ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
    bindNoCopy(index, bytes: UnsafeRawBufferPointer(bytes))
  }

  /// Binds bytes that stay valid until the statement is stepped, without copying them.
  func bindNoCopy(_ index: Int32, bytes: UnsafeRawBufferPointer) {
    let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
    sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
  }

  /// Runs a statement that returns no rows; returns the number of rows it changed.
  @discardableResult
  func executeCountingChanges(_ context: @autoclosure () -> String) throws -> Int {
    try execute(context())
    return Int(sqlite3_changes(connection))
  }

  /// Runs a statement that returns no rows.
  func execute(_ context: @autoclosure () -> String) throws {
    defer { sqlite3_reset(handle) }
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(context()) }
  }

  /// Steps through the rows, calling `row` for each.
  func forEachRow(_ context: @autoclosure () -> String, _ row: (RawStatement) throws -> Void) throws {
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw failure(context()) }
      try row(self)
    }
  }

  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  func string(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The column's bytes, valid until the next step or reset.
  func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard let blob = sqlite3_column_blob(handle, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: blob, count: count)
  }

  private func failure(_ context: String) -> StoreError {
    StoreError(context: context, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
  }
}

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
private let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
