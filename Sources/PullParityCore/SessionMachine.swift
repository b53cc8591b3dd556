/// The one state machine every session is judged by: pure, profile-driven, shared by ingest,
/// replay, the session drill-down and the Swift recorder, and small enough for a client to embed.
///
/// Like a reducer split by concern, each event goes to the part that owns it: the gesture
/// (`GestureReducer`), what the user is shown while pulling (`FeedbackReducer`), the refresh's
/// life (`RefreshReducer`) and what happens to the data (`ContentReducer`). A part answers `nil`
/// when the event is not allowed in the current phase, and changes nothing then.
public enum SessionMachine {
  /// Applies `event` to `state` and returns the findings it raises.
  ///
  /// An event the phase does not allow is an `unexpected_event` finding and changes nothing:
  /// a bad log never crashes or derails the machine.
  public static func reduce(
    _ state: inout SessionState, _ event: Event, profile: Profile
  ) -> [Violation] {
    if state.screen == nil { state.screen = event.screen }
    let at = event.timestamp
    if let findings = GestureReducer.reduce(&state, event.payload, at: at, profile: profile)
      ?? FeedbackReducer.reduce(&state, event.payload, at: at, profile: profile)
      ?? RefreshReducer.reduce(&state, event.payload, at: at, profile: profile)
      ?? ContentReducer.reduce(&state, event.payload, at: at, profile: profile)
    {
      return findings
    }
    return [
      Violation(
        kind: .unexpectedEvent, at: at, expected: "an event allowed while \(state.phase.rawValue)",
        actual: "\(event.type.rawValue) while \(state.phase.rawValue)")
    ]
  }
}
