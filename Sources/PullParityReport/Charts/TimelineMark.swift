/// One point on a session timeline: an event (label is its type) or a violation (label is its kind).
package struct TimelineMark: Equatable, Sendable {
  /// Milliseconds after the session's first event.
  package var offsetMs: Double
  package var label: String
  /// The payload or the expected/actual of a violation, for tooltips and the event list.
  package var detail: String

  package init(offsetMs: Double, label: String, detail: String = "") {
    self.offsetMs = offsetMs
    self.label = label
    self.detail = detail
  }
}
