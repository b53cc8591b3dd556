/// The verdict of one checklist item. `noData` (nothing to judge, e.g. no empty-state session
/// was logged) is shown but does not fail the checklist.
public enum QAStatus: String, Sendable, Codable {
  case pass
  case fail
  case noData = "no_data"
}
