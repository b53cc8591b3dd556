/// Which moment of the gesture a label is shown for; picks the copy a profile expects.
public enum LabelState: String, CaseIterable, Sendable, Codable {
  case pulling
  case ready
  case refreshing
}
