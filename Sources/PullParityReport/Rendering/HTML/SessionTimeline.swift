package import PullParityCore
package import PullParityStore

/// One example session drawn on a time axis in the HTML report: why it failed, event by event.
package struct SessionTimeline: Equatable, Sendable {
  package var sessionID: String
  package var app: String
  package var platform: String
  package var title: String
  /// Events in log order: all of them, or `maxMarks` of them when the session has more.
  package var marks: [TimelineMark]
  package var violations: [TimelineMark]
  /// The session's events and violations, drawn or not.
  package var eventCount: Int
  package var violationCount: Int
  /// The failing rule this session is the example of, when it was picked for one.
  package var example: FailingRule?
  /// The version of the profile the session was derived with, which picks the app entry whose
  /// profile draws it; nil: the app's first.
  package var profileVersion: Int?

  /// The most events a timeline draws (and its page lists): beyond that the marks are evenly
  /// spaced in log order, and the page says so. One session of 1M events drew every one, a
  /// 519 MB page; a 640-pixel axis shows no more than this anyway.
  package static let maxMarks = 400
  /// The most example sessions a report draws, one per failing rule, app and platform
  /// (`FailingRule.drawn`).
  package static let maxExamples = 50
  /// The most violations drawn and listed.
  package static let maxViolations = 50

  package init(
    sessionID: String, app: String, platform: String, title: String, marks: [TimelineMark],
    violations: [TimelineMark], eventCount: Int? = nil, violationCount: Int? = nil
  ) {
    self.sessionID = sessionID
    self.app = app
    self.platform = platform
    self.title = title
    self.marks = marks
    self.violations = violations
    self.eventCount = eventCount ?? marks.count
    self.violationCount = violationCount ?? violations.count
  }

  /// The positions of `count` items to draw when at most `limit` may be: all, or `limit`
  /// evenly spaced from the first to the last, with `kept` among them.
  static func drawn(_ count: Int, limit: Int, keeping kept: [Int] = []) -> [Int] {
    guard count > limit else { return Array(0..<count) }
    let spaced = (0..<limit - kept.count).map {
      Int((Double($0) * Double(count - 1) / Double(limit - kept.count - 1)).rounded())
    }
    return Array(Set(spaced + kept)).sorted()
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
    // Where the indicator showed and hid is drawn whatever else is left out: the chart's band.
    let span = [
      ordered.firstIndex { $0.event.type == .indicatorShown }, ordered.lastIndex { $0.event.type == .indicatorHidden },
    ].compactMap { $0 }
    self.init(
      sessionID: first?.sessionID ?? violations.first?.sessionID ?? "",
      app: app, platform: platform,
      title: (kinds.isEmpty ? "no violations" : kinds.joined(separator: ", ")) + " · \(app) on \(platform)",
      marks: Self.drawn(ordered.count, limit: Self.maxMarks, keeping: span).map {
        TimelineMark(
          offsetMs: ordered[$0].event.timestamp - origin, label: ordered[$0].event.type.rawValue,
          detail: SessionTraceRenderer.detail(ordered[$0].event.payload))
      },
      violations: Self.drawn(violations.count, limit: Self.maxViolations).map {
        TimelineMark(
          offsetMs: violations[$0].atMs - origin, label: violations[$0].kind.rawValue,
          detail: "expected \(violations[$0].expected ?? "–"); got \(violations[$0].actual ?? "–")")
      }, eventCount: ordered.count, violationCount: violations.count)
  }
}
