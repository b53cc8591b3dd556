/// How a session ended. `incomplete` sessions may still complete when more of the log arrives.
public enum SessionOutcome: String, CaseIterable, Sendable, Codable {
  case completed
  case cancelled
  case incomplete
  /// v1.2: the screen was left during the refresh (`screen_left` while refreshing or holding).
  case abandoned

  public init(phase: SessionPhase) {
    switch phase {
    case .done: self = .completed
    case .cancelled: self = .cancelled
    case .abandoned: self = .abandoned
    default: self = .incomplete
    }
  }
}
