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

extension EventTableRow {
  /// The row from its JSON line without `JSONDecoder` (`FlatRowScanner`); nil when the line is
  /// not a flat object holding every column in its plain form: `JSONDecoder` then reads it, and
  /// names what is wrong.
  init?(scanning line: UnsafeRawBufferPointer) {
    var scanner = FlatRowScanner(line)
    var (eventID, sessionID, platform, app, type, source, raw):
      (String?, String?, String?, String?, String?, String?, String?)
    var (tsMs, seq, lineNumber, byteOffset): (Double?, Int?, Int?, Int?)
    let read = scanner.forEachField { key, value in
      switch value {
      case .string(let text):
        if FlatRowScanner.same(key, "raw") {
          raw = text
        } else if FlatRowScanner.same(key, "event_id") {
          eventID = text
        } else if FlatRowScanner.same(key, "session_id") {
          sessionID = text
        } else if FlatRowScanner.same(key, "type") {
          type = text
        } else if FlatRowScanner.same(key, "platform") {
          platform = text
        } else if FlatRowScanner.same(key, "app") {
          app = text
        } else if FlatRowScanner.same(key, "source") {
          source = text
        } else if Self.isNumberColumn(key) {
          return false
        }
      case .number(let bytes):
        if FlatRowScanner.same(key, "ts_ms") {
          tsMs = FlatRowScanner.double(bytes)
          return tsMs != nil
        } else if FlatRowScanner.same(key, "seq") {
          seq = FlatRowScanner.int(bytes)
          return seq != nil
        } else if FlatRowScanner.same(key, "line") {
          lineNumber = FlatRowScanner.int(bytes)
          return lineNumber != nil
        } else if FlatRowScanner.same(key, "byte_offset") {
          byteOffset = FlatRowScanner.int(bytes)
          return byteOffset != nil
        } else if Self.isTextColumn(key) {
          return false
        }
      case .null:
        // Only `seq` may be null (absent); any other column must have its value.
        if FlatRowScanner.same(key, "seq") {
          seq = nil
        } else if Self.isTextColumn(key) || Self.isNumberColumn(key) {
          return false
        }
      case .bool:
        if Self.isTextColumn(key) || Self.isNumberColumn(key) { return false }
      }
      return true
    }
    guard read, let eventID, let sessionID, let platform, let app, let type, let source, let raw, let tsMs,
      let lineNumber, let byteOffset
    else { return nil }
    self.init(
      eventID: eventID, sessionID: sessionID, tsMs: tsMs, seq: seq, platform: platform, app: app, type: type,
      source: source, line: lineNumber, byteOffset: byteOffset, raw: raw)
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
