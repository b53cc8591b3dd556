/// One pull-to-refresh event as a client logged it (docs/events.md §1–2), after parsing.
///
/// Identity and dimensions are plain strings: platforms and apps other than the known ones are
/// kept and reported as they are, so the model never has to reject a well-formed newcomer.
public struct Event: Equatable, Sendable {
  public var eventID: String
  public var sessionID: String
  /// Unix epoch milliseconds; fractions are kept.
  public var timestamp: Double
  /// Orders events of one session that share a timestamp.
  public var seq: Int?
  public var platform: String
  public var app: String
  /// Names the behaviour profile when it differs from `app`.
  public var profile: String?
  public var appVersion: String?
  public var osVersion: String?
  public var device: String?
  public var screen: String?
  /// The screen had no content (an empty state).
  public var empty: Bool?
  /// A random id the recorder keeps per app install (v1.1): lets the repeated-refresh rule see
  /// one device's consecutive sessions; it identifies no person.
  public var installID: String?
  public var payload: EventPayload

  public init(
    eventID: String, sessionID: String, timestamp: Double, seq: Int? = nil,
    platform: String, app: String, profile: String? = nil, appVersion: String? = nil,
    osVersion: String? = nil, device: String? = nil, screen: String? = nil, empty: Bool? = nil,
    installID: String? = nil, payload: EventPayload
  ) {
    self.eventID = eventID
    self.sessionID = sessionID
    self.timestamp = timestamp
    self.seq = seq
    self.platform = platform
    self.app = app
    self.profile = profile
    self.appVersion = appVersion
    self.osVersion = osVersion
    self.device = device
    self.screen = screen
    self.empty = empty
    self.installID = installID
    self.payload = payload
  }

  public var type: EventType { payload.type }

  /// The profile this event asks for: `profile` when given, else the app's own.
  public var profileName: String { profile ?? app }
}
