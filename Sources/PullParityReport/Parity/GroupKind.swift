/// How a parity group could be judged.
package enum GroupKind: String, Sendable, Codable {
  /// Two or more platforms: compared with the reference platform, and each judged against the
  /// profile.
  case compared
  /// One platform: no comparison is possible, so it is judged against the profile alone.
  case judgedAlone = "judged_alone"
  /// No platform had enough sessions for any verdict.
  case skipped
}
