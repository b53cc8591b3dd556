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
  /// The columns met so far, a bit each (`columns`' order): `JSONDecoder` keeps the first of
  /// two values of a key, and a line with one is left to it.
  private var met: UInt16 = 0

  /// Takes a field, a text column's text as `copy` keeps it; false when the value is not the
  /// column's plain form, or when the column was met before. Keys of no column are left out,
  /// as `JSONDecoder` leaves them.
  mutating func take(
    _ key: UnsafeRawBufferPointer, _ value: FlatRowScanner.Value, copy: (UnsafeRawBufferPointer) -> ArenaSlice
  ) -> Bool {
    guard let column = column(key) else { return true }
    switch (column, value) {
    case (0..<7, .string(let text)):
      setText(column, copy(text))
      return true
    case (7, .number(let bytes)):
      tsMs = FlatRowScanner.double(bytes)
      return tsMs != nil
    case (8, .number(let bytes)):
      seq = FlatRowScanner.int(bytes)
      return seq != nil
    case (8, .null):
      // Only `seq` may be null (absent); any other column must have its value.
      return true
    case (9, .number(let bytes)):
      line = FlatRowScanner.int(bytes)
      return line != nil
    case (10, .number(let bytes)):
      byteOffset = FlatRowScanner.int(bytes)
      return byteOffset != nil
    default:
      return false
    }
  }

  private mutating func setText(_ column: Int, _ slice: ArenaSlice) {
    switch column {
    case 0: eventID = slice
    case 1: sessionID = slice
    case 2: platform = slice
    case 3: app = slice
    case 4: type = slice
    case 5: source = slice
    default: raw = slice
    }
  }

  private static let columns: [StaticString] = [
    "event_id", "session_id", "platform", "app", "type", "source", "raw", "ts_ms", "seq", "line", "byte_offset",
  ]

  /// The index of `key`'s column, marked as met; nil for a key of no column. A column met
  /// twice is the index of no column that takes a value (`columns.count`).
  private mutating func column(_ key: UnsafeRawBufferPointer) -> Int? {
    guard let index = Self.columns.firstIndex(where: { FlatRowScanner.same(key, $0) }) else { return nil }
    let bit: UInt16 = 1 << index
    defer { met |= bit }
    return met & bit == 0 ? index : Self.columns.count
  }
}
