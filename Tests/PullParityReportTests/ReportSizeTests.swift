import Foundation
import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityReport
@testable import PullParityStore

/// What a report draws is bounded by what it reports, not by what one client sent: an example
/// session's timeline draws a bounded number of events and says so, and every format grows by
/// the same amount for each platform it adds.
@Suite struct ReportSizeTests {
  typealias F = ReportFormatFixture

  /// A pull of `samples` moves, a refresh that flashes, and `extra` events its state does not
  /// accept (each an `unexpected_event` finding).
  static func longSession(samples: Int, extra: Int) -> SessionTimeline {
    var f = EventFactory(sessionID: "long", app: "padel", platform: "pwa")
    var events = [f.at(0, .pullStart)]
    for i in 0..<samples { events.append(f.at(1 + Double(i) * 0.01, .pullMove(distance: 40, offset: nil))) }
    let end = 1 + Double(samples) * 0.01
    events += [
      f.at(end + 10, .release(distance: 40)), f.at(end + 20, .refreshStart(trigger: .pull)),
      f.at(end + 30, .indicatorShown(nil)), f.at(end + 300, .loadComplete(ok: true, error: nil)),
      f.at(end + 600, .indicatorHidden),
    ]
    for i in 0..<extra { events.append(f.at(end + 700 + Double(i), .indicatorHidden)) }
    let violations = (0..<extra).map { i in
      ViolationRecord(
        sessionID: "long", app: "padel", platform: "pwa", kind: .unexpectedEvent,
        atMs: f.origin + end + 700 + Double(i),
        expected: "an event done accepts", actual: "indicator_hidden")
    }
    return SessionTimeline(events: EventFactory.recorded(events), violations: violations)
  }

  static func occurrences(of part: String, in text: String) -> Int {
    text.components(separatedBy: part).count - 1
  }

  /// One session of 1M events made a 519 MB page: the timeline, its list of events and its
  /// violations are drawn up to a bound, evenly spaced, with where the indicator showed and hid
  /// and the first and last events always among them, and the page says how many it drew.
  @Test(arguments: [(10, 1), (344, 50), (345, 51), (20_000, 2_000)])
  func aTimelineDrawsABoundedNumberOfEvents(samples: Int, extra: Int) throws {
    let timeline = Self.longSession(samples: samples, extra: extra)
    let events = samples + 6 + extra
    let html = try ReportFormat.html.render(
      ReportRenderInput(report: F.report, sessions: F.sessions, timelines: [timeline]))
    let drawnEvents = Self.occurrences(of: "class=\"mark event", in: html)
    let listedEvents = Self.occurrences(
      of: "</td></tr>", in: html.components(separatedBy: "<table class=\"events\">")[1])
    let drawnViolations = Self.occurrences(of: "class=\"mark violation", in: html)
    let listedViolations = Self.occurrences(of: "<li><span class=\"kind\">", in: html)
    // Every event up to the bound; beyond it the bound, less the kept ones that were due anyway.
    let bound = SessionTimeline.maxMarks
    #expect(events <= bound ? drawnEvents == events : (bound - 2...bound).contains(drawnEvents), "\(drawnEvents)")
    #expect(listedEvents == drawnEvents)
    #expect(drawnViolations == min(extra, SessionTimeline.maxViolations))
    #expect(listedViolations == drawnViolations)
    #expect(timeline.eventCount == events && timeline.violationCount == extra)
    let labels = timeline.marks.map(\.label)
    #expect(labels.first == "pull_start" && labels.contains("indicator_shown"))
    #expect(timeline.marks.last?.offsetMs == timeline.marks.map(\.offsetMs).max())
    let said = "Drawn: \(drawnEvents) of \(events) events and \(drawnViolations) of \(extra) violations"
    #expect(html.contains(said) == (events > SessionTimeline.maxMarks || extra > SessionTimeline.maxViolations))
    #expect(html.utf8.count < 400_000)
  }

  /// `platforms` platforms of one app with one identical session each (names of one length).
  static func report(platforms: Int) -> ReportRenderInput {
    let sessions = (0..<platforms).map { i in
      F.record("s\(i)", "p\(String(1000 + i))", arm: 35, clientArm: 35, timeToArm: 200, visible: 1300)
    }
    return ReportRenderInput(report: F.build(sessions), sessions: sessions)
  }

  /// Linear in platforms: a report of 300 platforms is as much longer than one of 200 as that
  /// is than one of 100, in every format (a table row per platform or a column; never a cell
  /// per pair of platforms). Coordinates that gain a digit as charts grow taller allow 3 %.
  @Test(arguments: ReportFormat.allCases)
  func everyFormatIsLinearInPlatforms(format: ReportFormat) throws {
    let sizes = try [100, 200, 300].map { try format.render(Self.report(platforms: $0)).utf8.count }
    let (first, second) = (sizes[1] - sizes[0], sizes[2] - sizes[1])
    #expect(abs(second - first) <= first * 3 / 100, "\(format): \(sizes)")
  }

  /// Every platform's comparison of every metric is the one found for it.
  @Test func eachComparisonIsFoundByItsPlatformAndMetric() throws {
    let group = Self.report(platforms: 300).report.apps[0].groups[0]
    #expect(group.comparisons.count == 299 * ParityMetric.allCases.count)
    for comparison in group.comparisons {
      #expect(group.comparison(of: comparison.metric, for: comparison.platform) == comparison)
    }
    #expect(group.comparison(of: .flashRate, for: group.referencePlatform!) == nil)
  }
}
