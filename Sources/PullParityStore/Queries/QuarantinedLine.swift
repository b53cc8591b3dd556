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
    case eventID = "event_id"
    case runID = "run_id"
  }
}
