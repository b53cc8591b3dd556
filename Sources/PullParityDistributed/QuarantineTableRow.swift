/// A row of a distributed run's `quarantine` table as `load` reads it (the SQLite table's
/// columns without the keys the loading database hands out).
struct QuarantineTableRow: PlainDecodableRow {
  var source: String
  var line: Int
  var byteOffset: Int
  var category: String
  var reason: String
  /// The line, or its bytes in hexadecimal (`raw_hex`) when they are not UTF-8.
  var raw: String?
  var rawHex: String?
  var eventID: String?

  enum CodingKeys: String, CodingKey {
    case source, line
    case byteOffset = "byte_offset"
    case category, reason, raw
    case rawHex = "raw_hex"
    case eventID = "event_id"
  }

  /// The raw line's bytes, and whether they are text.
  func rawBytes() -> (bytes: [UInt8], isUTF8: Bool) {
    if let raw { return (Array(raw.utf8), true) }
    var bytes: [UInt8] = []
    var digits = (rawHex ?? "").utf8.makeIterator()
    while let high = digits.next(), let low = digits.next() {
      if let byte = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) { bytes.append(byte) }
    }
    return (bytes, false)
  }
}
