/// How a session ended. `incomplete` sessions may still complete when more of the log arrives.
public enum SessionOutcome: String, CaseIterable, Sendable, Codable {
  case completed
  case cancelled
  case incomplete

  public init(phase: SessionPhase) {
    switch phase {
    case .done: self = .completed
    case .cancelled: self = .cancelled
    default: self = .incomplete
    }
  }
}
