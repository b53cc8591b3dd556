/// The finest grouping reports slice sessions by: everything a report groups or filters on
/// except time. Sessions of one cell share their profile, so they are judged alike, and any
/// report grouping (trigger, screen, app version, all) or non-time filter is a union of cells.
package struct SessionCell: Hashable, Sendable {
  package var app: String
  package var profile: String
  package var profileVersion: Int
  package var platform: String
  /// `sessions.trigger`: nil when the session never refreshed.
  package var trigger: String?
  package var screen: String?
  package var appVersion: String?

  package init(
    app: String, profile: String, profileVersion: Int, platform: String, trigger: String?, screen: String?,
    appVersion: String?
  ) {
    self.app = app
    self.profile = profile
    self.profileVersion = profileVersion
    self.platform = platform
    self.trigger = trigger
    self.screen = screen
    self.appVersion = appVersion
  }

  package init(_ session: SessionRecord) {
    self.init(
      app: session.app, profile: session.profile, profileVersion: session.profileVersion, platform: session.platform,
      trigger: session.metrics.trigger?.rawValue, screen: session.screen, appVersion: session.appVersion)
  }
}
