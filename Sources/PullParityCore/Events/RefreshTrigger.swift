/// What started a refresh. Tab re-select and programmatic refreshes start from idle, without a pull.
public enum RefreshTrigger: String, CaseIterable, Sendable, Codable {
  case pull
  case tabReselect = "tab_reselect"
  case programmatic
}
