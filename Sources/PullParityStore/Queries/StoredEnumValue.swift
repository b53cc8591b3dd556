/// Reads back a value this build keeps as an enum (a session's outcome or trigger, a violation's
/// kind). One it does not know, written by a newer build or by hand, is an error naming the
/// table, the column and the value: dropped, or read as another value, it would be counted in a
/// report as something it is not.
enum StoredEnumValue {
  static func decode<Value: RawRepresentable & CaseIterable>(
    _ text: String, table: String, column: String
  ) throws(StoreError) -> Value where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
      throw unknown(text, table: table, column: column, known: Value.allCases.map(\.rawValue))
    }
    return value
  }

  static func unknown(_ text: String, table: String, column: String, known: [String]) -> StoreError {
    StoreError(
      context: "reading \(table).\(column)",
      message: "unknown value \(String(reflecting: text)); this build knows \(known.joined(separator: ", ")). "
        + "The database was written by a newer pullparity or edited: read it with the build that wrote it.")
  }
}
