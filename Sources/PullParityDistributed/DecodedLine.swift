internal import PullParityCore
internal import PullParityIngest

/// One line of `pullparity decode`'s output (docs/distributed-formats.md): what an input line
/// turned out to be (an event, a rejection or a blank) with where it came from, as 15
/// tab-separated fields. The engine deduplicates and shuffles by the first ones and keeps the
/// raw line, last, for `derive` and the `events` and `quarantine` tables.
enum DecodedLine {
  /// The fields in order, as the documentation lists them.
  static let fields = [
    "kind", "source", "offset", "line", "event_id", "session_id", "ts_ms", "seq", "type", "platform", "app",
    "category", "reason", "raw_hex", "raw",
  ]

  static func blank(_ origin: LineOrigin) -> [UInt8] {
    var row = start("blank", origin)
    for _ in 0..<11 { row.text(nil) }
    return row.bytes
  }

  static func event(_ event: Event, _ origin: LineOrigin, raw: UnsafeRawBufferPointer) -> [UInt8] {
    var row = start("event", origin)
    row.text(event.eventID)
    row.text(event.sessionID)
    row.number(event.timestamp)
    row.number(event.seq)
    row.text(event.type.rawValue)
    row.text(event.platform)
    row.text(event.app)
    row.text(nil)
    row.text(nil)
    row.hex(nil)
    row.text(raw)  // an event is UTF-8: the decoder refuses other bytes
    return row.bytes
  }

  /// A rejection keeps its raw bytes: as text when they are UTF-8, else in `raw_hex`.
  static func rejected(_ rejection: Rejection, _ origin: LineOrigin, raw: UnsafeRawBufferPointer) -> [UInt8] {
    var row = start("rejected", origin)
    for _ in 0..<7 { row.text(nil) }
    row.text(rejection.reason.rawValue)
    row.text(rejection.message)
    if String(validating: raw, as: UTF8.self) != nil {
      row.hex(nil)
      row.text(raw)
    } else {
      row.hex(raw)
      row.text(nil)
    }
    return row.bytes
  }

  private static func start(_ kind: String, _ origin: LineOrigin) -> PipeRow {
    var row = PipeRow()
    row.text(kind)
    row.text(origin.source)
    row.number(origin.offset)
    row.number(origin.line)
    return row
  }
}
