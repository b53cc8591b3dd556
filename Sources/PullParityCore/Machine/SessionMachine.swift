/// The one state machine every session is judged by: pure, profile-driven, shared by ingest,
/// replay, the session drill-down and the Swift recorder, and small enough for a client to embed.
///
/// Like a reducer split by concern, each event goes to the part that owns it: the gesture
/// (`GestureReducer`), what the user is shown while pulling (`FeedbackReducer`), the refresh's
/// life (`RefreshReducer`), what happens to the data (`ContentReducer`) and the screen going away
/// (`LeaveReducer`). A part answers `nil` when the event is not allowed in the current phase, and
/// changes nothing then.
public enum SessionMachine {
  /// Applies `event` to `state` and returns the findings it raises.
  ///
  /// An event the phase does not allow is an `unexpected_event` finding and changes nothing:
  /// a bad log never crashes or derails the machine.
  public static func reduce(
    _ state: inout SessionState, _ event: Event, profile: Profile
  ) -> [Violation] {
    reduce(&state, event.payload, at: event.timestamp, screen: event.screen, profile: profile)
  }

  /// The same from the only parts of an event the machine reads. `SessionDeriver` passes these
  /// from events it holds in place: passing a whole `Event` copied it (every string retained and
  /// released) for every event of an ingest.
  static func reduce(
    _ state: inout SessionState, _ payload: EventPayload, at: Double, screen: String?, profile: Profile
  ) -> [Violation] {
    if state.screen == nil { state.screen = screen }
    if let findings = GestureReducer.reduce(&state, payload, at: at, profile: profile)
      ?? FeedbackReducer.reduce(&state, payload, at: at, profile: profile)
      ?? RefreshReducer.reduce(&state, payload, at: at, profile: profile)
      ?? ContentReducer.reduce(&state, payload, at: at, profile: profile)
      ?? LeaveReducer.reduce(&state, payload, at: at)
    {
      return findings
    }
    return [
      Violation(
        kind: .unexpectedEvent, at: at, expected: "an event allowed while \(state.phase.rawValue)",
        actual: "\(payload.type.rawValue) while \(state.phase.rawValue)")
    ]
  }
}
