/// The `type` field of an event: the names clients write on the wire (docs/events.md §2).
public enum EventType: String, CaseIterable, Sendable {
  case pullStart = "pull_start"
  case pullMove = "pull_move"
  case armed
  case disarmed
  case release
  case cancel
  case label
  case refreshStart = "refresh_start"
  case indicatorShown = "indicator_shown"
  case indicatorHidden = "indicator_hidden"
  case reveal
  case scrollToTop = "scroll_to_top"
  case cacheInvalidated = "cache_invalidated"
  case fetchStart = "fetch_start"
  case loadComplete = "load_complete"
  case errorShown = "error_shown"
  case contentCleared = "content_cleared"
  /// v1.2: the session's screen went away (navigation, background, closed).
  case screenLeft = "screen_left"
}
