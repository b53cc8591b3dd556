import PullParityCore
import PullParityStore
import Testing

@testable import PullParityReport

/// The rules behind every verdict: the gate, the sample size, intervals on rate differences,
/// which sessions a rule judges, and profile versions kept apart.
@Suite struct VerdictTests {
  typealias F = ReportFormatFixture

  @Test(arguments: [
    ([Verdict.pass, .insufficientData], false, GateOutcome.passed),
    ([.pass, .insufficientData], true, .insufficientData),
    ([.pass, .fail, .insufficientData], true, .failed),
    ([.fail], false, .failed),
    ([], false, .nothingJudged),
    ([.noData, .insufficientData], false, .nothingJudged),
    ([.noData, .insufficientData], true, .nothingJudged),
    // --require-data: a figure with no data wants data as much as one with too few sessions.
    ([.pass, .noData], true, .insufficientData),
    ([.pass, .noData], false, .passed),
    ([.noData], false, .nothingJudged),
  ])
  func gate(verdicts: [Verdict], requireData: Bool, outcome: GateOutcome) {
    #expect(VerdictPolicy(requireData: requireData).gate(verdicts) == outcome)
    #expect(outcome.exitCode == (outcome == .passed ? 0 : 1))
  }

  @Test(arguments: [(0, Verdict.noData), (1, .insufficientData), (29, .insufficientData), (30, .fail), (31, .fail)])
  func minimumSample(n: Int, verdict: Verdict) {
    #expect(VerdictPolicy.default.judge(n: n) { true } == verdict)
  }

  /// Two platforms of 40 completed sessions: 3 flashes against none is 7.5 points apart, but the
  /// interval (−2.5…+19.9) reaches into ±2, so that is no failure; 20 against none (+32.8…+64.8) is.
  @Test(arguments: [(3, Verdict.pass), (20, .fail)])
  func rateParityNeedsTheWholeIntervalBeyondTheTolerance(flashes: Int, verdict: Verdict) throws {
    let sessions =
      (0..<40).map { F.record("p\($0)", "pwa", visible: 1300) }
      + (0..<40).map { F.record("i\($0)", "ios", visible: $0 < flashes ? 900 : 1300) }
    let report = ParityReportBuilder(profiles: SessionProfiles(stored: []))
      .build(sessions, context: .init(database: "t", filter: .init(), toolVersion: "t", generatedAtMs: 0))
    let flash = try #require(report.groups[0].comparisons.first { $0.metric == .flashRate })
    #expect(flash.n == 40)
    #expect(flash.verdict == verdict)
    let interval = try #require(flash.interval)
    #expect(interval.low < flash.difference! && flash.difference! < interval.high)
  }

  /// Cache order judges the sessions on the screens that require it, and any session that broke
  /// it elsewhere, so a numerator never exceeds its denominator; error rules judge every session.
  @Test func ruleDenominators() {
    func session(
      _ id: String, screen: String, outcome: SessionOutcome = .completed, kinds: ViolationKinds = []
    ) -> SessionRecord {
      SessionRecord(
        sessionID: id, app: "ffci", profile: "ffci", profileVersion: 2, platform: "ios", appVersion: nil,
        screen: screen, empty: false, startedAtMs: 0,
        metrics: SessionMetrics(outcome: outcome, flash: outcome == .completed ? false : nil), violationKinds: kinds)
    }
    let sessions = [
      session("a", screen: "TabPageView"),
      session("b", screen: "TabPageView", outcome: .cancelled, kinds: [ViolationKinds(.cacheOrder)]),
      session("c", screen: "HomeView"),
      session("d", screen: "HomeView", kinds: [ViolationKinds(.cacheOrder), ViolationKinds(.lateHide)]),
    ]
    let profile = BuiltInProfiles.ffci
    let cache = RuleEvaluator.judge(.cacheOrder, sessions: sessions, profile: profile)
    #expect(cache.judged == 3 && cache.failing == 2 && cache.examples == ["b", "d"])
    let flash = RuleEvaluator.judge(.flash, sessions: sessions, profile: profile)
    #expect(flash.judged == 3 && flash.failing == 0)
    let errors = RuleEvaluator.judge(.errorNotShown, sessions: sessions, profile: profile)
    #expect(errors.judged == 4 && errors.failing == 0)
    let budget = RuleEvaluator.result(
      .cacheOrder, sessions: sessions, profile: profile,
      policy: VerdictPolicy(minSessions: 1, budgets: [.cacheOrder: 66.7]))
    #expect(budget.rate == Rate(numerator: 2, denominator: 3))
    #expect(budget.verdict == .pass)
    #expect(budget.examples == ["b", "d"])
  }

  /// Sessions of one app derived with two versions of its profile are two entries, each saying
  /// the other exists, never one group judged by either set of rules.
  @Test func profileVersionsAreJudgedApart() throws {
    var sessions = F.sessions.filter { $0.app == "padel" && $0.platform == "pwa" }
    for index in sessions.indices where index % 2 == 0 { sessions[index].profileVersion = 3 }
    let report = F.build(sessions)
    #expect(report.apps.map { "\($0.app) v\($0.profile.version)" } == ["padel v2", "padel v3"])
    #expect(report.apps.map(\.otherProfileVersions) == [[3], [2]])
    #expect(report.context.profiles.map { "\($0.name) v\($0.version)" } == ["padel v2", "padel v3"])
    let text = TextReportRenderer().render(report)
    #expect(text.contains("Sessions of padel were also derived with v3: judged apart."))
  }

  /// Data from logs cannot drive the terminal: escape sequences in an app or platform name are
  /// printed as text.
  @Test func textEscapesControlCharactersFromLogs() {
    var sessions = F.sessions.filter { $0.app == "ffci" }
    for index in sessions.indices { sessions[index].platform = "ios\u{1B}]0;pwned\u{7}" }
    let text = TextReportRenderer().render(F.build(sessions))
    #expect(!text.contains("\u{1B}"))
    #expect(text.contains("ios\\u{1b}]0;pwned\\u{7}"))
  }
}
