internal import PullParityCore
internal import PullParityStore

/// How an app's sessions are sliced before platforms are compared.
package enum GroupDimension: String, CaseIterable, Sendable, Codable {
  /// Pull, tab re-select and programmatic refreshes apart (the default: they are different
  /// gestures and must not dilute each other).
  case trigger
  case screen
  case appVersion = "app_version"
  /// Every session of the app in one group.
  case all

  /// The slice a session belongs to.
  func value(of record: SessionRecord, profile: Profile) -> String {
    value(of: SessionCell(record), profile: profile)
  }

  /// The slice a cell's sessions belong to. Screens are the profile's logical screens, so that
  /// the PWA's `feed` and the iOS app's `FeedView` meet in one group.
  func value(of cell: SessionCell, profile: Profile) -> String {
    switch self {
    case .trigger: cell.trigger ?? "none"
    case .screen: cell.screen.map { profile.logicalScreen($0, on: cell.platform) } ?? "unknown"
    case .appVersion: cell.appVersion ?? "unknown"
    case .all: "all"
    }
  }
}
