/// What a cohort selector (`key=value`) may narrow on. The app is not one of them: a comparison
/// is within one app, chosen for both cohorts with `--app`.
package enum CohortKey: String, CaseIterable, Sendable, Codable {
  case appVersion = "app_version"
  case platform
  case screen
  /// Sessions started at or after this time.
  case since
  /// Sessions started before this time.
  case until

  /// `app_version, platform, screen, since, until`, for error messages and help.
  package static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
