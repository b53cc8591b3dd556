/// The kinds of finding a session can have (docs/events.md §5, §9). Raw values are the names stored in
/// `violations.kind`.
public enum ViolationKind: String, CaseIterable, Sendable, Codable {
  case flash
  case prematureHide = "premature_hide"
  case lateHide = "late_hide"
  case labelText = "label_text"
  case armMismatch = "arm_mismatch"
  case doubleRefresh = "double_refresh"
  case unexpectedEvent = "unexpected_event"
  case indicatorConfig = "indicator_config"
  case revealOrder = "reveal_order"
  case cacheOrder = "cache_order"
  case contentClearedOnError = "content_cleared_on_error"
  case errorNotShown = "error_not_shown"
  // v1.1: the failures users file.
  case stuckRefresh = "stuck_refresh"
  case droppedRefresh = "dropped_refresh"
  case refreshBeforeRelease = "refresh_before_release"
  case repeatedRefresh = "repeated_refresh"
}
