package import PullParityCore

/// One line of `pullparity decode`'s output (docs/distributed-formats.md): what an input line
/// turned out to be — an event, a rejection or a blank — with where it came from. `derive`
/// reads the event lines back, and a distributed run's `events` and `quarantine` tables are
/// made of them.
package struct DecodedLine: Codable, Equatable, Sendable {
  package enum Kind: String, Codable, Sendable {
    case event, rejected, blank
  }

  package var kind: Kind
  package var source: String
  package var offset: Int
  package var line: Int?
  package var eventID: String?
  package var sessionID: String?
  package var tsMs: Double?
  package var seq: Int?
  package var type: String?
  package var platform: String?
  package var app: String?
  package var profile: String?
  package var appVersion: String?
  package var osVersion: String?
  package var device: String?
  package var screen: String?
  package var empty: Bool?
  package var installID: String?
  package var payload: DecodedPayload?
  /// For rejections: `quarantine.category` and `quarantine.reason`.
  package var category: String?
  package var reason: String?
  /// The line as received, without its line end; absent for blanks and when not UTF-8.
  package var raw: String?
  /// The line's bytes in hexadecimal when they are not UTF-8 (only ever an `invalid_utf8` rejection).
  package var rawHex: String?

  enum CodingKeys: String, CodingKey {
    case kind, source, offset, line
    case eventID = "event_id"
    case sessionID = "session_id"
    case tsMs = "ts_ms"
    case seq, type
    case platform, app, profile
    case appVersion = "app_version"
    case osVersion = "os_version"
    case device, screen, empty
    case installID = "install_id"
    case payload, category, reason, raw
    case rawHex = "raw_hex"
  }

  package init(kind: Kind, origin: LineOrigin) {
    self.kind = kind
    source = origin.source
    offset = origin.offset
    line = origin.line
  }

  package init(_ event: Event, origin: LineOrigin, raw: String) {
    self.init(kind: .event, origin: origin)
    eventID = event.eventID
    sessionID = event.sessionID
    tsMs = event.timestamp
    seq = event.seq
    type = event.type.rawValue
    platform = event.platform
    app = event.app
    profile = event.profile
    appVersion = event.appVersion
    osVersion = event.osVersion
    device = event.device
    screen = event.screen
    empty = event.empty
    installID = event.installID
    payload = DecodedPayload(event.payload)
    self.raw = raw
  }

  package init(_ rejection: Rejection, origin: LineOrigin, raw: UnsafeRawBufferPointer) {
    self.init(kind: .rejected, origin: origin)
    category = rejection.reason.rawValue
    reason = rejection.message
    if let text = String(validating: raw, as: UTF8.self) {
      self.raw = text
    } else {
      rawHex = raw.map { byte in
        let hex = String(byte, radix: 16)
        return byte < 16 ? "0" + hex : hex
      }.joined()
    }
  }

  package var origin: LineOrigin { LineOrigin(source: source, offset: offset, line: line) }
}
