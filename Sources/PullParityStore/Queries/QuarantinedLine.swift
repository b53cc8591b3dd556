import Foundation
internal import GRDB

/// A line the quarantine table holds, as `pullparity quarantine` lists it.
package struct QuarantinedLine: Sendable, Encodable {
  package var id: Int64
  package var source: String
  package var line: Int
  package var byteOffset: Int
  package var category: String
  /// Names the field and what was wrong with it.
  package var reason: String
  /// The line as received; bytes that are not UTF-8 (a BLOB in the table) become U+FFFD.
  package var raw: String
  /// For a conflict: the id whose stored version won.
  package var eventID: String?
  package var runID: Int64
  /// The line's exact bytes, and whether they were kept as a BLOB (not valid UTF-8).
  package private(set) var bytes: [UInt8]
  package private(set) var isBlob: Bool

  init(row: Row) {
    id = row["quarantine_id"]
    source = row["source"]
    line = row["line"]
    byteOffset = row["byte_offset"]
    category = row["category"]
    reason = row["reason"]
    let bytes: Data = row["raw"] ?? Data()
    self.bytes = Array(bytes)
    isBlob = row["is_blob"] ?? false
    raw = String(decoding: bytes, as: UTF8.self)
    eventID = row["event_id"]
    runID = row["run_id"]
  }

  mutating func set(_ bytes: [UInt8], isBlob: Bool) {
    self.bytes = bytes
    self.isBlob = isBlob
    raw = String(decoding: bytes, as: UTF8.self)
  }

  enum CodingKeys: String, CodingKey {
    case id = "quarantine_id"
    case source, line
    case byteOffset = "byte_offset"
    case category, reason, raw
    case rawHex = "raw_hex"
    case eventID = "event_id"
    case runID = "run_id"
  }

  /// Every column; a line that is not UTF-8 also has `raw_hex`, its exact bytes (as the Spark
  /// job's `rejected` rows spell them), since `raw` shows U+FFFD in their place.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(source, forKey: .source)
    try container.encode(line, forKey: .line)
    try container.encode(byteOffset, forKey: .byteOffset)
    try container.encode(category, forKey: .category)
    try container.encode(reason, forKey: .reason)
    try container.encode(raw, forKey: .raw)
    if isBlob { try container.encode(Self.hex(bytes), forKey: .rawHex) }
    try container.encodeIfPresent(eventID, forKey: .eventID)
    try container.encode(runID, forKey: .runID)
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
    return String(decoding: text, as: UTF8.self)
  }
}
