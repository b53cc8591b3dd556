/// How a gate (`report --check`, `qa`, `compare`) ends.
package enum GateOutcome: String, Sendable, Codable {
  case passed
  /// A figure failed its check.
  case failed
  /// Some figures had too few sessions, or none, and `--require-data` was given.
  case insufficientData = "insufficient_data"
  /// No figure had enough sessions for a verdict, or (`report --check`) no group had two
  /// platforms to compare: the gate checked nothing, so it does not pass.
  case nothingJudged = "nothing_judged"

  /// The process exit code: 0 only when the gate passed.
  package var exitCode: Int32 { self == .passed ? 0 : 1 }
}
