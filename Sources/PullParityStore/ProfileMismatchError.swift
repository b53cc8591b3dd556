/// A command refused to derive sessions with other rules than the database's sessions have.
public struct ProfileMismatchError: Error, CustomStringConvertible, Sendable {
  public var mismatches: [ProfileMismatch]
  /// What to do instead, for the command that refused.
  public var advice: String

  public init(_ mismatches: [ProfileMismatch], advice: String) {
    self.mismatches = mismatches
    self.advice = advice
  }

  public var description: String {
    (["the profiles in force differ from those stored in the database:"]
      + mismatches.map { "  \($0)" } + [advice]).joined(separator: "\n")
  }
}
