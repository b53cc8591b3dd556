/// The judgement of one figure: a platform against the reference, a platform against a rule of
/// its profile, a QA item, a change between cohorts. Only `pass` and `fail` are verdicts about
/// the app; the other two say why there is none.
package enum Verdict: String, Sendable, Codable {
  case pass
  case fail
  /// Fewer sessions than the minimum sample (`--min-sessions`): too few to say either way.
  case insufficientData = "insufficient_data"
  /// No session the figure applies to.
  case noData = "no_data"
  /// The app has no profile, and the figure needs the profile's numbers (how far the indicator
  /// is drawn for a finger distance): judging it with defaults would fail a faithful app.
  case noProfile = "no_profile"

  /// A verdict was reached (pass or fail).
  package var isJudged: Bool { self == .pass || self == .fail }
}
