package import PullParityCore

/// A stored session as reports read it.
package struct SessionRecord: Equatable, Sendable {
  package var sessionID: String
  package var app: String
  package var profile: String
  package var profileVersion: Int
  package var platform: String
  package var appVersion: String?
  package var screen: String?
  package var empty: Bool
  package var startedAtMs: Double
  package var metrics: SessionMetrics
  /// `sessions.event_count`.
  package var eventCount: Int
  /// The kinds of its stored violations.
  package var violationKinds: ViolationKinds

  package init(
    sessionID: String, app: String, profile: String, profileVersion: Int, platform: String,
    appVersion: String?, screen: String?, empty: Bool, startedAtMs: Double, metrics: SessionMetrics,
    eventCount: Int = 0, violationKinds: ViolationKinds = []
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
    self.violationKinds = violationKinds
  }
}
