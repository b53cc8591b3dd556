/// One finding in a session: what rule, when, what the profile expected and what happened.
public struct Violation: Equatable, Sendable {
  public var kind: ViolationKind
  public var at: Double
  public var expected: String
  public var actual: String

  public init(kind: ViolationKind, at: Double, expected: String, actual: String) {
    self.kind = kind
    self.at = at
    self.expected = expected
    self.actual = actual
  }
}
