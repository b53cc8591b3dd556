/// One event's columns as borrowed UTF-8 bytes and numbers, valid for the duration of a
/// `store` call: the ingest hot path binds them without making a single Swift string.
public struct EventFields {
  public var eventID: UnsafeRawBufferPointer
  public var sessionID: UnsafeRawBufferPointer
  public var platform: UnsafeRawBufferPointer
  public var app: UnsafeRawBufferPointer
  public var type: UnsafeRawBufferPointer
  /// The line as received, without its line end.
  public var raw: UnsafeRawBufferPointer
  public var timestamp: Double
  public var seq: Int?
  public var sessionRef: Int64
  public var sourceID: Int64
  public var line: Int
  public var byteOffset: Int

  public init(
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
