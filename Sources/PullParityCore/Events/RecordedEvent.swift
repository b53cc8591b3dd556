/// An event with where it was read from, which breaks ties in log order.
public struct RecordedEvent: Equatable, Sendable {
  public var event: Event
  public var source: String
  /// 1-based line number in `source`.
  public var line: Int

  public init(event: Event, source: String, line: Int) {
    self.event = event
    self.source = source
    self.line = line
  }

  /// Log order (docs/events.md §9): timestamp, then `seq` (absent sorts as 0), then file name, then line.
  public static func inLogOrder(_ lhs: RecordedEvent, _ rhs: RecordedEvent) -> Bool {
    if lhs.event.timestamp != rhs.event.timestamp { return lhs.event.timestamp < rhs.event.timestamp }
    let lhsSeq = lhs.event.seq ?? 0
    let rhsSeq = rhs.event.seq ?? 0
    if lhsSeq != rhsSeq { return lhsSeq < rhsSeq }
    if lhs.source != rhs.source { return lhs.source < rhs.source }
    return lhs.line < rhs.line
  }
}
