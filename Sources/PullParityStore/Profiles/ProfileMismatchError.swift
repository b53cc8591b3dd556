/// A command refused to derive sessions with other rules than the database's sessions have.
package struct ProfileMismatchError: Error, CustomStringConvertible, Sendable {
  package var mismatches: [ProfileMismatch]
  /// What to do instead, for the command that refused.
  package var advice: String

  package init(_ mismatches: [ProfileMismatch], advice: String) {
    self.mismatches = mismatches
    self.advice = advice
  }

  package var description: String {
    (["the profiles in force differ from those stored in the database:"]
      + mismatches.map { "  \($0)" } + [advice]).joined(separator: "\n")
  }
}
