package import PullParityCore
package import PullParityStore

extension LineDecoder {
  /// A session's stored raw lines read back as events: the one place they are decoded again
  /// (ingest, replay, the session drill-down, the report's timelines). A line that no longer
  /// passes today's rules is left out; when none does, this throws rather than hand the state
  /// machine an empty session.
  package mutating func sessionEvents(_ stored: [StoredEvent], sessionID: String) throws -> [RecordedEvent] {
    try sessionEvents(sessionID: sessionID) { visit in
      for line in stored {
        var raw = line.raw
        try raw.withUTF8 { try visit(UnsafeRawBufferPointer($0), line.source, line.line) }
      }
    }
  }

  /// The same, with the lines handed over one at a time as (raw bytes, source, line) by
  /// `forEachLine` (`IngestTransaction.forEachStoredEvent`), so that a huge session is never
  /// held as text and as events at once.
  package mutating func sessionEvents(
    sessionID: String,
    forEachLine: (_ visit: (UnsafeRawBufferPointer, String, Int) throws -> Void) throws -> Void
  ) throws -> [RecordedEvent] {
    var events: [RecordedEvent] = []
    var lines = 0
    var firstRejected: (source: String, line: Int, rejection: Rejection)?
    try forEachLine { raw, source, line in
      lines += 1
      switch decode(raw, readableCount: raw.count) {
      case .event(let event): events.append(RecordedEvent(event: event, source: source, line: line))
      case .rejected(let rejection): if firstRejected == nil { firstRejected = (source, line, rejection) }
      case .blank: if firstRejected == nil { firstRejected = (source, line, Rejection(.notJSON, "the stored line is empty")) }
      }
    }
    guard events.isEmpty else { return events }
    throw StoredSessionError(
      sessionID: sessionID, storedLines: lines, firstSource: firstRejected?.source, firstLine: firstRejected?.line,
      firstRejection: firstRejected?.rejection)
  }
}
