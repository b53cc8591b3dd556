public import PullParityCore

/// A finding the recorder's live check raised, the moment the event that decides it is recorded.
public struct LiveFinding: Equatable, Sendable, CustomStringConvertible {
  public var sessionID: String
  public var violation: Violation

  public init(sessionID: String, violation: Violation) {
    self.sessionID = sessionID
    self.violation = violation
  }

  public var kind: ViolationKind { violation.kind }

  public var description: String {
    "\(violation.kind.rawValue) in session \(sessionID): expected \(violation.expected), got \(violation.actual)"
  }
}
