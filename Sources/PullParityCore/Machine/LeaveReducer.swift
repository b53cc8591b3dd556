/// v1.2: the session's screen went away (docs/events.md §4). A pull the user left is over and
/// nothing was dropped (cancelled); a refresh the user left is `abandoned`, a final phase. Before
/// a pull and after the session ended, leaving is allowed and changes nothing.
enum LeaveReducer {
  static func reduce(_ state: inout SessionState, _ payload: EventPayload, at: Double) -> [Violation]? {
    guard case .screenLeft = payload else { return nil }
    switch state.phase {
    case .pulling, .armed, .released:
      state.phase = .cancelled
      state.screenLeftAt = at
    case .refreshing, .holding:
      state.phase = .abandoned
      state.screenLeftAt = at
      // The finger, if still down, went with the screen.
      state.fingerStillDown = false
    case .idle, .done, .cancelled, .abandoned:
      break
    }
    return []
  }
}
