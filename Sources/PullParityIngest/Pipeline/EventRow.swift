package import PullParityStore

/// An event as the writer stores it: numbers and arena slices only, no Swift objects, so the
/// writer's per-event work is binding bytes, not retaining and releasing strings. Ingest's
/// chunks and `load`'s batches both carry their events this way.
package struct EventRow: Sendable {
  package var eventID: ArenaSlice
  package var sessionID: ArenaSlice
  package var platform: ArenaSlice
  package var app: ArenaSlice
  package var type: ArenaSlice
  package var raw: ArenaSlice
  package var timestamp: Double
  package var seq: Int?
  package var idKey: IDKey
  /// Index of its session in the chunk's (the batch's) sessions, of its source in its sources.
  package var sessionIndex: Int
  package var sourceIndex: Int
  package var line: Int
  package var byteOffset: Int
  /// Another line of the chunk has the same id key (a re-sent line, a conflict).
  var idRepeatsInChunk = false

  package init(
    eventID: ArenaSlice, sessionID: ArenaSlice, platform: ArenaSlice, app: ArenaSlice, type: ArenaSlice,
    raw: ArenaSlice, timestamp: Double, seq: Int?, idKey: IDKey, sessionIndex: Int, sourceIndex: Int, line: Int,
    byteOffset: Int
  ) {
    self.eventID = eventID
    self.sessionID = sessionID
    self.platform = platform
    self.app = app
    self.type = type
    self.raw = raw
    self.timestamp = timestamp
    self.seq = seq
    self.idKey = idKey
    self.sessionIndex = sessionIndex
    self.sourceIndex = sourceIndex
    self.line = line
    self.byteOffset = byteOffset
  }

  /// Its columns as `IngestTransaction.store` takes them, read from `arena`.
  package func fields(_ arena: UnsafeRawBufferPointer, sessionRef: Int64, sourceID: Int64) -> EventFields {
    EventFields(
      eventID: eventID.bytes(in: arena), sessionID: sessionID.bytes(in: arena), platform: platform.bytes(in: arena),
      app: app.bytes(in: arena), type: type.bytes(in: arena), raw: raw.bytes(in: arena), timestamp: timestamp,
      seq: seq, sessionRef: sessionRef, sourceID: sourceID, line: line, byteOffset: byteOffset)
  }
}
