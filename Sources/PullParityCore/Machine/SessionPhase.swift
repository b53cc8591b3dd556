/// Where a session is in the gesture (docs/events.md §4):
/// `idle → pulling ⇄ armed → released → refreshing → holding → done`, and `→ cancelled`; v1.2's
/// `screen_left` ends a pull as cancelled and a refresh as abandoned.
public enum SessionPhase: String, CaseIterable, Sendable {
  case idle
  case pulling
  case armed
  /// Released while armed: waiting for the client's `refresh_start`.
  case released
  case refreshing
  /// The load is done; the indicator must stay until the hold ends.
  case holding
  case done
  case cancelled
  /// v1.2: the screen was left while refreshing or holding. Final, like done and cancelled.
  case abandoned
}
