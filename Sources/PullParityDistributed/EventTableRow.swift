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
