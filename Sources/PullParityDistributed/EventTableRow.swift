internal import PullParityIngest

/// A row of a distributed run's `events` table as `load` reads it: the columns of the SQLite
/// `events` table that are facts (no keys), the source by name.
struct EventTableRow: Decodable {
  var eventID: String
  var sessionID: String
  var tsMs: Double
  var seq: Int?
  var platform: String
  var app: String
  var type: String
  var source: String
  var line: Int
  var byteOffset: Int
  var raw: String

  enum CodingKeys: String, CodingKey {
    case eventID = "event_id"
    case sessionID = "session_id"
    case tsMs = "ts_ms"
    case seq, platform, app, type, source, line
    case byteOffset = "byte_offset"
    case raw
  }
}

/// The columns of an event row as `FlatRowScanner` finds them, the texts as slices of the
/// batch's arena (`EventBatch`): which key is which column, and which values a column takes in
/// its plain form (a text for a text column, an integer or a number, `seq` null).
struct ScannedEventColumns {
  var eventID: ArenaSlice?
  var sessionID: ArenaSlice?
  var platform: ArenaSlice?
  var app: ArenaSlice?
  var type: ArenaSlice?
  var source: ArenaSlice?
  var raw: ArenaSlice?
  var tsMs: Double?
  var seq: Int?
  var line: Int?
  var byteOffset: Int?

  /// Sets the text column `key` to what `copy` returns; false when `key` is no text column.
  mutating func setText(_ key: UnsafeRawBufferPointer, _ copy: () -> ArenaSlice) -> Bool {
    if FlatRowScanner.same(key, "raw") {
      raw = copy()
    } else if FlatRowScanner.same(key, "event_id") {
      eventID = copy()
    } else if FlatRowScanner.same(key, "session_id") {
      sessionID = copy()
    } else if FlatRowScanner.same(key, "type") {
      type = copy()
    } else if FlatRowScanner.same(key, "platform") {
      platform = copy()
    } else if FlatRowScanner.same(key, "app") {
      app = copy()
    } else if FlatRowScanner.same(key, "source") {
      source = copy()
    } else {
      return false
    }
    return true
  }

  /// Takes a value other than a text column's text; false when it is not the column's plain
  /// form. Keys of no column are left out, as `JSONDecoder` leaves them.
  mutating func take(_ key: UnsafeRawBufferPointer, _ value: FlatRowScanner.Value) -> Bool {
    switch value {
    case .string:
      return !Self.isNumberColumn(key)
    case .number(let bytes):
      if FlatRowScanner.same(key, "ts_ms") {
        tsMs = FlatRowScanner.double(bytes)
        return tsMs != nil
      } else if FlatRowScanner.same(key, "seq") {
        seq = FlatRowScanner.int(bytes)
        return seq != nil
      } else if FlatRowScanner.same(key, "line") {
        line = FlatRowScanner.int(bytes)
        return line != nil
      } else if FlatRowScanner.same(key, "byte_offset") {
        byteOffset = FlatRowScanner.int(bytes)
        return byteOffset != nil
      }
      return !Self.isTextColumn(key)
    case .null:
      // Only `seq` may be null (absent); any other column must have its value.
      if FlatRowScanner.same(key, "seq") {
        seq = nil
        return true
      }
      return !Self.isTextColumn(key) && !Self.isNumberColumn(key)
    case .bool:
      return !Self.isTextColumn(key) && !Self.isNumberColumn(key)
    }
  }

  private static let textColumns: [StaticString] = [
    "event_id", "session_id", "platform", "app", "type", "source", "raw",
  ]
  private static let numberColumns: [StaticString] = ["ts_ms", "seq", "line", "byte_offset"]

  private static func isTextColumn(_ key: UnsafeRawBufferPointer) -> Bool {
    textColumns.contains { FlatRowScanner.same(key, $0) }
  }

  private static func isNumberColumn(_ key: UnsafeRawBufferPointer) -> Bool {
    numberColumns.contains { FlatRowScanner.same(key, $0) }
  }
}
