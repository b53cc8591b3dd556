internal import PullParityCore

/// The finest grouping reports slice sessions by: everything a report groups or filters on
/// except time. Sessions of one cell share their profile, so they are judged alike, and any
/// report grouping (trigger, screen, app version, all) or non-time filter is a union of cells.
///
/// Cells are equal when their names are equal byte for byte, as SQLite compares them: with
/// `String`'s equality, `é` and `e` + U+0301 would be one cell in Swift and two in the
/// database, and which name a merged cell showed would depend on the order it was read in.
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

  package static func == (lhs: SessionCell, rhs: SessionCell) -> Bool {
    lhs.profileVersion == rhs.profileVersion && ByteIdentity(lhs.app) == ByteIdentity(rhs.app)
      && ByteIdentity(lhs.platform) == ByteIdentity(rhs.platform)
      && ByteIdentity(lhs.profile) == ByteIdentity(rhs.profile)
      && lhs.trigger.map(ByteIdentity.init) == rhs.trigger.map(ByteIdentity.init)
      && lhs.screen.map(ByteIdentity.init) == rhs.screen.map(ByteIdentity.init)
      && lhs.appVersion.map(ByteIdentity.init) == rhs.appVersion.map(ByteIdentity.init)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(ByteIdentity(app))
    hasher.combine(ByteIdentity(profile))
    hasher.combine(profileVersion)
    hasher.combine(ByteIdentity(platform))
    hasher.combine(trigger.map(ByteIdentity.init))
    hasher.combine(screen.map(ByteIdentity.init))
    hasher.combine(appVersion.map(ByteIdentity.init))
  }
}
