import Foundation
import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityReport
@testable import PullParityStore

/// The HTML report's release review: rate axes that show small rates, a failing rule's days,
/// the versions compared, and an example session per failing rule and platform.
@Suite struct ReleaseReviewTests {
  typealias F = ReportFormatFixture
  static let day = RuleTrend.dayMs

  /// An ffci ios session that broke `kinds`, `days` after the fixture's start.
  static func ffci(
    _ id: String, days: Double = 0, version: String = "1.0", outcome: SessionOutcome = .completed,
    platform: String = "ios", broke kinds: [ViolationKind] = []
  ) -> SessionRecord {
    var session = F.record(id, app: "ffci", platform, outcome: outcome, arm: 70, clientArm: 70, visible: 1600)
    session.startedAtMs += days * day
    session.appVersion = version
    session.violationKinds = ViolationKinds(kinds: kinds)
    return session
  }

  // MARK: - Axes

  @Test(arguments: [
    (0.0, 1.0), (0.4, 1.0), (1.0, 1.0), (1.5, 2.0), (2.2, 2.5), (3.0, 5.0), (13.3, 20.0), (25.0, 25.0),
    (39.0, 50.0), (99.0, 100.0), (100.0, 100.0), (150.0, 100.0),
  ])
  func aRateAxisEndsAtTheNextRoundStep(largest: Double, ceiling: Double) {
    #expect(ChartScale.rateCeiling(largest) == ceiling)
  }

  @Test func aSmallRateFillsItsOwnAxisAndNeverVanishes() {
    // 2 % alone: its axis ends at 2 %, the bar fills the track (184 units).
    #expect(RateChart.barWidth(percent: 2, ceiling: ChartScale.rateCeiling(2)) == 184)
    // 2 % next to 100 %: linear would be 3.7 units; it keeps the minimum, 0 % a sliver.
    #expect(RateChart.barWidth(percent: 2, ceiling: 100) == RateChart.minimumBar)
    #expect(RateChart.barWidth(percent: 0, ceiling: 100) == 1.5)
    #expect(RateChart.barWidth(percent: 50, ceiling: 100) == 92)
  }

  @Test func theRateChartDrawsEveryFailingRuleAppSpecificOnesIncluded() throws {
    let sessions = [
      Self.ffci("f1", broke: [.errorNotShown]), Self.ffci("f2", broke: [.doubleRefresh]), Self.ffci("f3"),
      Self.ffci("f4"),
    ]
    let report = F.build(sessions)
    let group = try #require(report.apps.first?.groups.first)
    let chart = RateChart(id: "x", platforms: group.orderedPlatforms, failing: [], palette: ChartPalette(platforms: []))
    #expect(chart.blocks.compactMap(\.rule) == ["error_not_shown", "double_refresh"])
    let svg = chart.render()
    #expect(svg.contains("data-rule=\"error_not_shown\" data-platform=\"ios\" data-percent=\"25\""))
    // Each block is labelled with its own axis: 25 % of 4 sessions on a 0–25 % axis.
    #expect(svg.contains("axis 0–25 %"))
  }

  // MARK: - Days

  @Test func daysWithoutAJudgedSessionAreGapsNotZeros() throws {
    let sessions = [
      Self.ffci("a", days: 0, broke: [.errorNotShown]), Self.ffci("b", days: 0),
      // Day 1: only a cancelled session, which flash and hold rules do not judge.
      Self.ffci("c", days: 1, outcome: .cancelled),
      Self.ffci("d", days: 3), Self.ffci("e", days: 3, platform: "android", broke: [.errorNotShown]),
    ]
    let report = F.build(sessions)
    let trends = RuleTrend.trends(report, sessions: sessions)
    let trend = try #require(trends.first { $0.rule == .errorNotShown })
    #expect(trend.app == "ffci")
    #expect(trend.firstDay == RuleTrend.day(ofMs: sessions[0].startedAtMs))
    let byPlatform = try Dictionary(uniquePairs: trend.series.map { ($0.platform, $0.days) })
    // error_not_shown judges every session: ios has days 0, 1 and 3, none on day 2.
    #expect(
      byPlatform["ios"] == [
        Rate(numerator: 1, denominator: 2), Rate(numerator: 0, denominator: 1), nil, Rate(numerator: 0, denominator: 1),
      ])
    #expect(byPlatform["android"] == [nil, nil, nil, Rate(numerator: 1, denominator: 1)])
    // Only failing rules get a trend.
    #expect(trends.map(\.rule) == [.errorNotShown])
    let chart = TrendChart(id: "t", trend: trend, palette: ChartPalette(platforms: ["ios", "android"]))
    // A dot per day with a rate; ios's line breaks at day 2: a segment of two days, a lone dot.
    #expect(chart.markCount == 4)
    #expect(chart.render().components(separatedBy: "<polyline").count - 1 == 1)
  }

  // MARK: - Versions

  @Test(arguments: [
    ("1.9", "1.10", true), ("1.10", "1.9", false), ("2.0", "2.0.1", true), ("3.8.0", "3.8.1", true),
    ("1.0-beta", "1.0-rc", true), ("10", "9", false),
  ])
  func versionsOrderByTheirNumbers(a: String, b: String, before: Bool) {
    #expect(ReleasePair.precedes(a, b) == before)
  }

  @Test func eachPlatformComparesItsTwoNewestVersions() {
    var noVersion = Self.ffci("n", version: "9.9")
    noVersion.appVersion = nil
    let sessions = [
      Self.ffci("a", version: "1.9"), Self.ffci("b", version: "1.10"), Self.ffci("c", version: "1.2"),
      Self.ffci("d", version: "2.0", platform: "android"), noVersion,
      F.record("p1", "pwa"), F.record("p2", "pwa"),
    ]
    // android has one version, padel one: only ffci on ios is compared.
    #expect(
      ReleasePair.pairs(sessions) == [ReleasePair(app: "ffci", platform: "ios", previous: "1.9", newest: "1.10")])
  }

  @Test func theVersionChartDrawsWhatCompareJudged() throws {
    // 10 against 10: enough for 0 % → 100 % to be more than chance among the figures judged.
    let before = (0..<10).map { Self.ffci("b\($0)", version: "1.0") }
    let after = (0..<10).map { Self.ffci("a\($0)", version: "1.1", broke: [.errorNotShown]) }
    var filter = SessionFilter()
    filter.app = "ffci"
    let comparison = CohortComparison(
      baseline: Cohort(name: "baseline", selector: "app_version=1.0", filter: filter), baselineSessions: before,
      candidate: Cohort(name: "candidate", selector: "app_version=1.1", filter: filter), candidateSessions: after,
      trigger: .pull, profiles: SessionProfiles(stored: []), context: F.context)
    let chart = VersionChart(id: "v", comparison: comparison, axes: .init([comparison]))
    let delta = try #require(comparison.delta(.rule(.errorNotShown)))
    #expect(delta.verdict == .regression)
    #expect(chart.rows.contains(delta))
    #expect(chart.markCount == 2 * chart.rows.count)
    let svg = chart.render()
    #expect(svg.contains("0.0% (0/10) → 100.0% (10/10)"))
    #expect(svg.contains("✗ regression"))
  }

  /// A figure has one axis on the page: a 2 ms change in one release is drawn a fraction of the
  /// length of a 640 ms one in another, where an axis per row drew both across the chart.
  @Test func aFigureHasOneAxisAcrossTheReleasesDrawn() throws {
    func comparison(_ app: String, from: Double, to: Double) -> CohortComparison {
      var filter = SessionFilter()
      filter.app = app
      let before = (0..<30).map { F.record("\(app)b\($0)", app: "ffci", "ios", visible: from) }
      let after = (0..<30).map { F.record("\(app)a\($0)", app: "ffci", "ios", visible: to) }
      return CohortComparison(
        baseline: Cohort(name: "baseline", selector: "app_version=1.0", filter: filter), baselineSessions: before,
        candidate: Cohort(name: "candidate", selector: "app_version=1.1", filter: filter), candidateSessions: after,
        trigger: .pull, profiles: SessionProfiles(stored: []), context: F.context)
    }
    let small = comparison("small", from: 1000, to: 1002)
    let large = comparison("large", from: 1000, to: 1640)
    let axes = VersionChart.Axes([small, large])
    /// The length of the visible time's dumbbell (the line after its heading), in chart units.
    func length(_ compared: CohortComparison) throws -> Double {
      let lines = VersionChart(id: "v", comparison: compared, axes: axes).render().components(separatedBy: "\n")
      let heading = try #require(lines.firstIndex { $0.contains(">visible time<") })
      let row = try #require(lines[heading...].first { $0.contains("class=\"dumbbell") })
      let ends = try ["x1", "x2"].map { name in
        let start = try #require(row.range(of: " \(name)=\""))
        return try #require(Double(row[start.upperBound...].prefix { $0 != "\"" }))
      }
      return abs(ends[1] - ends[0])
    }
    let (short, long) = (try length(small), try length(large))
    #expect(long > 100, "640 ms on an axis from 0 to 2,000 ms")
    #expect(abs(short / long - 2.0 / 640) < 0.001, "\(short) against \(long)")
  }

  // MARK: - Example sessions

  @Test func aFailingRuleGetsOneExamplePerAppAndPlatform() {
    // error_not_shown fails on ios in both groups (pull and programmatic): one example.
    var programmatic = Self.ffci("p", broke: [.errorNotShown])
    programmatic.metrics.trigger = .programmatic
    let sessions = [
      Self.ffci("a", broke: [.errorNotShown]), Self.ffci("b", broke: [.errorNotShown, .doubleRefresh]), programmatic,
      Self.ffci("c", platform: "android", broke: [.errorNotShown]),
    ]
    let rules = FailingRule.all(F.build(sessions))
    // In the report's order: platforms as the group orders them, then the profile's rules.
    #expect(
      rules == [
        FailingRule(app: "ffci", platform: "android", rule: .errorNotShown),
        FailingRule(app: "ffci", platform: "ios", rule: .errorNotShown),
        FailingRule(app: "ffci", platform: "ios", rule: .doubleRefresh),
      ])
    #expect(
      FailingRule(app: "a", platform: "b", rule: .holdCompliance).violationKinds == [.flash, .prematureHide, .lateHide])
    #expect(FailingRule(app: "a", platform: "b", rule: .cacheOrder).violationKinds == [.cacheOrder])
  }

  @Test func examplesAreBoundedHoweverManyRulesFail() {
    // Twelve platforms breaking every rule that has a violation: more than the bound.
    let kinds = Array(ViolationKind.allCases)
    let sessions = (0..<12).map { Self.ffci("s\($0)", platform: "p\($0)", broke: kinds) }
    let report = F.build(sessions)
    let all = FailingRule.all(report)
    #expect(all.count > SessionTimeline.maxExamples)
    #expect(FailingRule.drawn(report) == Array(all.prefix(SessionTimeline.maxExamples)))
    #expect(FailingRule.drawn(report, limit: 3).count == 3)
  }

  @Test func namesFromLogsAreEscapedInTheReleaseReview() throws {
    let app = "<img src=x onerror=alert(1)>"
    let platform = "\"><b>"
    func hostile(_ session: SessionRecord, version: String) -> SessionRecord {
      var session = session
      (session.app, session.platform, session.appVersion) = (app, platform, version)
      return session
    }
    let before = (0..<2).map { hostile(Self.ffci("b\($0)"), version: "1<i>") }
    let after = (0..<2).map { hostile(Self.ffci("a\($0)", broke: [.errorNotShown]), version: "2<i>") }
    var filter = SessionFilter()
    filter.app = app
    filter.platform = platform
    var old = filter
    old.appVersion = "1<i>"
    var new = filter
    new.appVersion = "2<i>"
    let comparison = CohortComparison(
      baseline: Cohort(name: "baseline", selector: "app_version=1<i>", filter: old), baselineSessions: before,
      candidate: Cohort(name: "candidate", selector: "app_version=2<i>", filter: new), candidateSessions: after,
      trigger: .pull, profiles: SessionProfiles(stored: []), context: F.context)
    var timeline = F.timeline
    timeline.example = FailingRule(app: app, platform: platform, rule: .errorNotShown)
    let html = HTMLReportRenderer().render(
      ReportRenderInput(
        report: F.build(before + after), sessions: before + after, timelines: [timeline], releases: [comparison]))
    #expect(html.contains("figure class=\"chart trend\" data-app=\"&lt;img src=x onerror=alert(1)&gt;\""))
    #expect(html.contains("data-platform=\"&quot;&gt;&lt;b&gt;\" data-baseline=\"1&lt;i&gt;\""))
    #expect(html.contains("data-rule=\"error_not_shown\""))
    for raw in ["<img", "<b>", "<i>"] { #expect(!html.contains(raw), "\(raw) unescaped") }
  }

  @Test func aFailingRuleWithoutAnExampleIsNamed() throws {
    let sessions = [Self.ffci("a", broke: [.errorNotShown])]
    let html = HTMLReportRenderer().render(
      ReportRenderInput(report: F.build(sessions), sessions: sessions, timelines: [F.timeline]))
    #expect(html.contains("No example drawn for: error_not_shown (ffci on ios)."))
  }
}
