package import PullParityCore
package import PullParityStore

extension LineDecoder {
  /// A session's stored raw lines read back as events, for the session drill-down and the
  /// report's timelines; ingest, replay and the cross-session judge derive stored sessions
  /// through `StoredSessionDerivation`. Both gather them in `StoredSessionEvents`, the one place
  /// stored lines are decoded again. A line that no longer passes today's rules is left out; when
  /// none does, this throws rather than hand the state machine an empty session.
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
    var gathered = StoredSessionEvents()
    try forEachLine { raw, source, line in gathered.add(raw, source: source, line: line, decoder: &self) }
    return try gathered.finish(sessionID: sessionID)
  }
}
