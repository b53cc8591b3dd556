public import PullParityCore

/// A stored session as reports read it.
public struct SessionRecord: Equatable, Sendable {
  public var sessionID: String
  public var app: String
  public var profile: String
  public var profileVersion: Int
  public var platform: String
  public var appVersion: String?
  public var screen: String?
  public var empty: Bool
  public var startedAtMs: Double
  public var metrics: SessionMetrics
  /// `sessions.event_count`.
  public var eventCount: Int

  public init(
    sessionID: String, app: String, profile: String, profileVersion: Int, platform: String,
    appVersion: String?, screen: String?, empty: Bool, startedAtMs: Double, metrics: SessionMetrics,
    eventCount: Int = 0
  ) {
    self.sessionID = sessionID
    self.app = app
    self.profile = profile
    self.profileVersion = profileVersion
    self.platform = platform
    self.appVersion = appVersion
    self.screen = screen
    self.empty = empty
    self.startedAtMs = startedAtMs
    self.metrics = metrics
    self.eventCount = eventCount
  }
}
