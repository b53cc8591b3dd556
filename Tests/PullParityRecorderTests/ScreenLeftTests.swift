import Foundation
import PullParityCore
import PullParityIngest
import PullParityRecorder
import Testing

/// `screen_left` (contract v1.2), as the web and Android recorders record it: only while a
/// session is open, so once per session, and nothing more of that session afterwards; the
/// pipeline's machine ends a left pull as cancelled and a left refresh as abandoned.
@Suite struct ScreenLeftTests {
  static func recorder(_ lines: Collected<String>, findings: Collected<LiveFinding>? = nil) -> PullParityRecorder {
    PullParityRecorder(
      app: "phlock", screen: "FeedView", sink: lines.sink, clock: ManualClock(), ids: UUIDv7Generator.seeded(),
      onFinding: findings.map { $0.append })
  }

  /// Each line as (session in order of appearance, type, reason).
  static func summary(_ events: [Event]) -> [String] {
    var sessions: [String] = []
    return events.map { event in
      if !sessions.contains(event.sessionID) { sessions.append(event.sessionID) }
      let reason = if case .screenLeft(let reason?) = event.payload { " \(reason)" } else { "" }
      return "\(sessions.firstIndex(of: event.sessionID)!) \(event.type.rawValue)\(reason)"
    }
  }

  @Test func screenLeftIsRecordedOnceAndOnlyWhileASessionIsOpen() {
    let lines = Collected<String>()
    let recorder = Self.recorder(lines)
    recorder.screenLeft(reason: "navigation")  // nothing open: no line
    recorder.pullStart()
    recorder.pullMove(distance: 90)
    recorder.release(distance: 90)
    recorder.refreshStart()
    recorder.indicatorShown()
    recorder.screenLeft(reason: "background")
    recorder.screenLeft(reason: "navigation")  // already left: no second line
    recorder.loadComplete(ok: true)  // the left session's: not written
    recorder.indicatorHidden()
    recorder.pullStart()
    recorder.pullMove(distance: 10)
    recorder.screenLeft(reason: "closed")
    recorder.release(distance: 10)  // after leaving: not written
    recorder.refreshStart(trigger: .programmatic)
    recorder.indicatorHidden()
    recorder.screenLeft()  // done: no line

    #expect(
      Self.summary(PullParityRecorderTests.decode(lines.all)) == [
        "0 pull_start", "0 pull_move", "0 release", "0 refresh_start", "0 indicator_shown",
        "0 screen_left background",
        "1 pull_start", "1 pull_move", "1 screen_left closed",
        "2 refresh_start", "2 indicator_hidden",
      ])
  }

  @Test func aLeftRefreshIsAbandonedAndALeftPullCancelledWithNoFinding() {
    let lines = Collected<String>()
    let findings = Collected<LiveFinding>()
    let recorder = Self.recorder(lines, findings: findings)
    recorder.pullStart()
    recorder.pullMove(distance: 90)
    recorder.release(distance: 90)
    recorder.refreshStart()
    recorder.indicatorShown()
    recorder.screenLeft(reason: "navigation")
    recorder.pullStart()
    recorder.pullMove(distance: 30)
    recorder.screenLeft(reason: "background")
    recorder.closeSession()

    let profile = ProfileCatalog().resolve("phlock")
    var states: [String: SessionState] = [:]
    var order: [String] = []
    for event in PullParityRecorderTests.decode(lines.all) {
      if states[event.sessionID] == nil { order.append(event.sessionID) }
      #expect(SessionMachine.reduce(&states[event.sessionID, default: SessionState()], event, profile: profile).isEmpty)
    }
    let outcomes = order.map { SessionMetrics.finalize(states[$0]!, profile: profile).metrics.outcome }
    #expect(outcomes == [.abandoned, .cancelled])
    #expect(findings.all.isEmpty, "\(findings.all)")
  }
}
