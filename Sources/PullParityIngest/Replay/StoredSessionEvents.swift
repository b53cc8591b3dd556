package import PullParityCore

/// The events of one session, gathered from its stored raw lines as they are read, so that a
/// session is never held as text and as events at once (a client that sends one constant
/// session id makes a session of millions of events). A line that no longer passes today's
/// rules is left out; when none does, `finish` throws rather than hand the state machine an
/// empty session.
package struct StoredSessionEvents {
  package private(set) var events: [RecordedEvent] = []
  private var lines = 0
  private var firstRejected: (source: String, line: Int, rejection: Rejection)?

  package init() {}

  package mutating func add(
    _ raw: UnsafeRawBufferPointer, source: String, line: Int, decoder: inout LineDecoder
  ) {
    lines += 1
    switch decoder.decode(raw, readableCount: raw.count) {
    case .event(let event): events.append(RecordedEvent(event: event, source: source, line: line))
    case .rejected(let rejection): if firstRejected == nil { firstRejected = (source, line, rejection) }
    case .blank:
      if firstRejected == nil { firstRejected = (source, line, Rejection(.notJSON, "the stored line is empty")) }
    }
  }

  package func finish(sessionID: String) throws(StoredSessionError) -> [RecordedEvent] {
    guard events.isEmpty else { return events }
    throw StoredSessionError(
      sessionID: sessionID, storedLines: lines, firstSource: firstRejected?.source, firstLine: firstRejected?.line,
      firstRejection: firstRejected?.rejection)
  }
}
