/// One event of a session replay: the event, the state after it and what it raised.
public struct SessionStep: Equatable, Sendable {
  public var recorded: RecordedEvent
  public var stateAfter: SessionState
  public var findings: [Violation]
}
