/// One point on a session timeline: an event (label is its type) or a violation (label is its kind).
public struct TimelineMark: Equatable, Sendable {
  /// Milliseconds after the session's first event.
  public var offsetMs: Double
  public var label: String
  /// The payload or the expected/actual of a violation, for tooltips and the event list.
  public var detail: String

  public init(offsetMs: Double, label: String, detail: String = "") {
    self.offsetMs = offsetMs
    self.label = label
    self.detail = detail
  }
}
