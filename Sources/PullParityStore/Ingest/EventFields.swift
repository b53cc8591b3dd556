/// One event's columns as borrowed UTF-8 bytes and numbers, valid for the duration of a
/// `store` call: the ingest hot path binds them without making a single Swift string.
package struct EventFields {
  package var eventID: UnsafeRawBufferPointer
  package var sessionID: UnsafeRawBufferPointer
  package var platform: UnsafeRawBufferPointer
  package var app: UnsafeRawBufferPointer
  package var type: UnsafeRawBufferPointer
  /// The line as received, without its line end.
  package var raw: UnsafeRawBufferPointer
  package var timestamp: Double
  package var seq: Int?
  package var sessionRef: Int64
  package var sourceID: Int64
  package var line: Int
  package var byteOffset: Int

  package init(
    eventID: UnsafeRawBufferPointer, sessionID: UnsafeRawBufferPointer, platform: UnsafeRawBufferPointer,
    app: UnsafeRawBufferPointer, type: UnsafeRawBufferPointer, raw: UnsafeRawBufferPointer, timestamp: Double,
    seq: Int?, sessionRef: Int64, sourceID: Int64, line: Int, byteOffset: Int
  ) {
    self.eventID = eventID
    self.sessionID = sessionID
    self.platform = platform
    self.app = app
    self.type = type
    self.raw = raw
    self.timestamp = timestamp
    self.seq = seq
    self.sessionRef = sessionRef
    self.sourceID = sourceID
    self.line = line
    self.byteOffset = byteOffset
  }
}
