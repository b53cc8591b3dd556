/// What every output says of apps that have no profile: their sessions are derived with defaults
/// (`Profile.unconstrained`) that judge no app-specific rule, so a user must know which apps
/// those are and how to give them one.
package enum NoProfileNote {
  package static let advice =
    "write one (docs/profiles.md) and pass it with --profiles, then `pullparity replay --profiles FILE`"

  /// `demo, shop: judged with defaults (…); write one …`, or `nil` when every app has a profile.
  package static func line(apps: [String]) -> String? {
    guard !apps.isEmpty else { return nil }
    return apps.sorted().joined(separator: ", ")
      + ": judged with defaults (no arm threshold, resistance 1, no minimum hold, no label copy); " + advice
  }
}
