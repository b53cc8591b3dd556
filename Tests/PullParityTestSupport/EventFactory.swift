package import PullParityCore

/// Builds the events of one hand-written session tersely: `f.at(120, .pullMove(distance: 30, offset: nil))`.
package struct EventFactory {
  package var sessionID: String
  package var app: String
  package var platform: String
  package var screen: String?
  package var appVersion: String?
  package var empty: Bool?
  /// Epoch ms that offsets given to `at` are added to.
  package var origin: Double
  private var counter = 0

  package init(
    sessionID: String = "s1", app: String = "padel", platform: String = "ios", screen: String? = nil,
    appVersion: String? = nil, empty: Bool? = nil, origin: Double = 1_795_000_000_000
  ) {
    self.sessionID = sessionID
    self.app = app
    self.platform = platform
    self.screen = screen
    self.appVersion = appVersion
    self.empty = empty
    self.origin = origin
  }

  /// An event `offset` ms after the origin, with a fresh event id.
  package mutating func at(_ offset: Double, _ payload: EventPayload, seq: Int? = nil) -> Event {
    counter += 1
    return Event(
      eventID: "\(sessionID)-e\(counter)", sessionID: sessionID, timestamp: origin + offset, seq: seq,
      platform: platform, app: app, appVersion: appVersion, screen: screen, empty: empty, payload: payload)
  }

  /// Wraps events as read from `source`, one per line in the given order.
  package static func recorded(_ events: [Event], source: String = "test.jsonl") -> [RecordedEvent] {
    events.enumerated().map { RecordedEvent(event: $0.element, source: source, line: $0.offset + 1) }
  }
}
