package import PullParityCore
package import PullParityStore

/// One example session drawn on a time axis in the HTML report: why it failed, event by event.
package struct SessionTimeline: Equatable, Sendable {
  package var sessionID: String
  package var app: String
  package var platform: String
  package var title: String
  /// Events in log order.
  package var marks: [TimelineMark]
  package var violations: [TimelineMark]

  package init(
    sessionID: String, app: String, platform: String, title: String, marks: [TimelineMark],
    violations: [TimelineMark]
  ) {
    self.sessionID = sessionID
    self.app = app
    self.platform = platform
    self.title = title
    self.marks = marks
    self.violations = violations
  }

  /// A session's stored events and violations on one axis whose zero is its first event.
  package init(events: [RecordedEvent], violations: [ViolationRecord]) {
    let ordered = events.sorted(by: RecordedEvent.inLogOrder)
    let first = ordered.first?.event
    let origin = first?.timestamp ?? violations.map(\.atMs).min() ?? 0
    let app = first?.app ?? violations.first?.app ?? ""
    let platform = first?.platform ?? violations.first?.platform ?? ""
    var kinds: [String] = []
    for violation in violations where !kinds.contains(violation.kind.rawValue) { kinds.append(violation.kind.rawValue) }
    self.init(
      sessionID: first?.sessionID ?? violations.first?.sessionID ?? "",
      app: app, platform: platform,
      title: (kinds.isEmpty ? "no violations" : kinds.joined(separator: ", ")) + " · \(app) on \(platform)",
      marks: ordered.map {
        TimelineMark(
          offsetMs: $0.event.timestamp - origin, label: $0.event.type.rawValue,
          detail: SessionTraceRenderer.detail($0.event.payload))
      },
      violations: violations.map {
        TimelineMark(
          offsetMs: $0.atMs - origin, label: $0.kind.rawValue,
          detail: "expected \($0.expected ?? "–"); got \($0.actual ?? "–")")
      })
  }

  /// Up to `limit` sessions worth drawing: a session for each violation kind first (in the order
  /// of `ViolationKind`, hold problems first) so the examples show different failures, then
  /// further failing sessions in id order.
  ///
  /// - Parameter firstSessions: the first `count` distinct ids, in id order, of sessions with a
  ///   violation of `kind` (of any kind when `nil`): a query that stops early, so that the
  ///   examples never need every violation read.
  package static func exampleSessionIDs(
    limit: Int = 3, firstSessions: (_ kind: ViolationKind?, _ count: Int) throws -> [String]
  ) rethrows -> [String] {
    var picked: [ByteIdentity] = []
    for kind in ViolationKind.allCases where picked.count < limit {
      // `limit` ids hold one not picked yet whenever the kind has one: fewer are picked.
      if let id = try firstSessions(kind, limit).first(where: { !picked.contains(ByteIdentity($0)) }) {
        picked.append(ByteIdentity(id))
      }
    }
    if picked.count < limit {
      for id in try firstSessions(nil, 2 * limit) where picked.count < limit && !picked.contains(ByteIdentity(id)) {
        picked.append(ByteIdentity(id))
      }
    }
    return picked.map(\.text)
  }
}
