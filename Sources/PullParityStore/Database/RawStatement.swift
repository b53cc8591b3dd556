internal import Foundation
internal import GRDB
import GRDBSQLite

/// A prepared statement driven through SQLite's C API. Used on the ingest hot path, where
/// building GRDB argument arrays and Swift Strings for every event was the measured cost, and
/// wherever text from the logs is a key (ids, apps, screens): GRDB binds and reads TEXT up to
/// its first NUL, which would make `demo\u{0}x` and `demo` one app. Everything else goes
/// through GRDB.
final class RawStatement {
  let sql: String
  private let handle: OpaquePointer
  private let connection: OpaquePointer
  /// The first bind that failed since the statement last ran.
  private var bindFailure: (code: Int32, message: String)?
  /// Result columns by name, so that readers name what they read (`column(_:)`).
  private let positions: [String: Int32]

  init(_ db: Database, _ sql: String) throws {
    guard let connection = db.sqliteConnection else {
      throw StoreError(context: "preparing a statement", message: "the connection is closed", sql: sql)
    }
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw StoreError(
        context: "preparing a statement", message: String(cString: sqlite3_errmsg(connection)), sql: sql,
        resultCode: code)
    }
    self.sql = sql
    self.handle = handle
    self.connection = connection
    var positions: [String: Int32] = [:]
    for index in 0..<sqlite3_column_count(handle) {
      if let name = sqlite3_column_name(handle, index) { positions[String(cString: name)] = index }
    }
    self.positions = positions
  }

  /// The position of a result column: look it up before stepping, read cells by it in the loop.
  /// A name the statement does not select is a programming error.
  func column(_ name: String) -> Int32 {
    guard let position = positions[name] else { preconditionFailure("no column \(name) in \(sql)") }
    return position
  }

  deinit { sqlite3_finalize(handle) }

  // Binding can fail (a value over SQLite's length limit, no memory): the first failure is
  // kept and thrown when the statement runs, so call sites stay plain and no failed bind is
  // ever stepped with a stale or NULL value in its place.
  func bind(_ index: Int32, _ value: Int64) { check(sqlite3_bind_int64(handle, index, value), index) }
  func bind(_ index: Int32, _ value: Int) { check(sqlite3_bind_int64(handle, index, Int64(value)), index) }
  func bind(_ index: Int32, _ value: Double) { check(sqlite3_bind_double(handle, index, value), index) }
  func bind(_ index: Int32, _ value: Double?) {
    if let value { bind(index, value) } else { bindNull(index) }
  }
  func bind(_ index: Int32, _ value: Int?) {
    if let value { bind(index, value) } else { bindNull(index) }
  }

  func bind(_ index: Int32, _ value: DatabaseValue) {
    switch value.storage {
    case .null: bindNull(index)
    case .int64(let int): bind(index, int)
    case .double(let double): bind(index, double)
    case .string(let string): bind(index, string)
    case .blob(let data): data.withUnsafeBytes { bindBytes(index, $0, asBlob: true, destructor: sqliteTransient) }
    }
  }

  func bind(_ index: Int32, _ value: String?) {
    guard var value else { return bindNull(index) }
    value.withUTF8 { bindBytes(index, UnsafeRawBufferPointer($0), asBlob: false, destructor: sqliteTransient) }
  }

  /// Binds bytes already known to be UTF-8 as TEXT, or as a BLOB when `asBlob`.
  func bind(_ index: Int32, bytes: UnsafeRawBufferPointer, asBlob: Bool = false) {
    bindBytes(index, bytes, asBlob: asBlob, destructor: sqliteTransient)
  }

  /// Binds bytes that stay valid until the statement is stepped, without copying them.
  func bindNoCopy(_ index: Int32, bytes: UnsafeRawBufferPointer) {
    bindBytes(index, bytes, asBlob: false, destructor: nil)
  }

  private func bindNull(_ index: Int32) { check(sqlite3_bind_null(handle, index), index) }

  /// 64-bit lengths: a length over 2 GiB is SQLite's to refuse (SQLITE_TOOBIG), not a trap.
  private func bindBytes(
    _ index: Int32, _ bytes: UnsafeRawBufferPointer, asBlob: Bool, destructor: sqlite3_destructor_type?
  ) {
    let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
    let count = UInt64(bytes.count)
    let code =
      asBlob
      ? sqlite3_bind_blob64(handle, index, base, count, destructor)
      : sqlite3_bind_text64(
        handle, index, base.assumingMemoryBound(to: CChar.self), count, destructor, UInt8(SQLITE_UTF8))
    check(code, index)
  }

  private func check(_ code: Int32, _ index: Int32) {
    guard code != SQLITE_OK, bindFailure == nil else { return }
    bindFailure = (code, "binding parameter \(index): \(String(cString: sqlite3_errstr(code)))")
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
    try checkBinds(context())
    let code = sqlite3_step(handle)
    guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(context(), code) }
  }

  /// Steps through the rows, calling `row` for each.
  func forEachRow(_ context: @autoclosure () -> String, _ row: (RawStatement) throws -> Void) throws {
    defer { sqlite3_reset(handle) }
    try checkBinds(context())
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw failure(context(), code) }
      try row(self)
    }
  }

  /// Every row, each made into a value by `row`: for reads whose text must come back byte for
  /// byte (GRDB reads TEXT up to its first NUL and binds a String the same way).
  func rows<T>(_ context: @autoclosure () -> String, _ row: (RawStatement) throws -> T) throws -> [T] {
    var rows: [T] = []
    try forEachRow(context()) { rows.append(try row($0)) }
    return rows
  }

  /// Prepares `sql` and binds `values` in order.
  convenience init(_ db: Database, _ sql: String, _ values: [DatabaseValue]) throws {
    try self.init(db, sql)
    for (index, value) in values.enumerated() { bind(Int32(index + 1), value) }
  }

  /// Steps to the next row: `false` when there is none. For walking two statements side by
  /// side; call `reset` when done.
  func step(_ context: @autoclosure () -> String) throws -> Bool {
    try checkBinds(context())
    let code = sqlite3_step(handle)
    guard code == SQLITE_ROW || code == SQLITE_DONE else { throw failure(context(), code) }
    return code == SQLITE_ROW
  }

  func reset() { sqlite3_reset(handle) }

  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
  func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(handle, column)) }
  func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }
  func optionalFlag(_ column: Int32) -> Bool? { optionalInt(column).map { $0 != 0 } }
  func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

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

  private func checkBinds(_ context: @autoclosure () -> String) throws {
    guard let bindFailure else { return }
    self.bindFailure = nil
    throw StoreError(context: context(), message: bindFailure.message, sql: sql, resultCode: bindFailure.code)
  }

  private func failure(_ context: String, _ code: Int32) -> StoreError {
    StoreError(context: context, message: String(cString: sqlite3_errmsg(connection)), sql: sql, resultCode: code)
  }
}

/// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
private let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
