public import PullParityStore

/// How an app's sessions are sliced before platforms are compared.
public enum GroupDimension: String, CaseIterable, Sendable, Codable {
  /// Pull, tab re-select and programmatic refreshes apart (the default: they are different
  /// gestures and must not dilute each other).
  case trigger
  case screen
  case appVersion = "app_version"
  /// Every session of the app in one group.
  case all

  func value(of record: SessionRecord) -> String {
    switch self {
    case .trigger: record.metrics.trigger?.rawValue ?? "none"
    case .screen: record.screen ?? "unknown"
    case .appVersion: record.appVersion ?? "unknown"
    case .all: "all"
    }
  }
}
