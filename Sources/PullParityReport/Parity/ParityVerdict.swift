package import PullParityCore

/// The verdict every format starts or ends with, computed once so that text, Markdown and HTML
/// name the same failing groups, metrics and rules.
package enum ParityVerdict {
  /// One group that failed: the metrics not at parity, and the rules broken with the platforms
  /// that broke them (or, for a gate that failed for want of data, the metrics and rules that
  /// lacked it).
  package struct GroupFailure: Equatable, Sendable {
    package var app: String
    package var group: String
    package var metrics: [ParityMetric]
    package var rules: [(rule: ProfileRule, platforms: [String])]

    package static func == (lhs: GroupFailure, rhs: GroupFailure) -> Bool {
      lhs.app == rhs.app && lhs.group == rhs.group && lhs.metrics == rhs.metrics
        && lhs.rules.map(\.rule) == rhs.rules.map(\.rule) && lhs.rules.map(\.platforms) == rhs.rules.map(\.platforms)
    }

    /// "flash, arm mismatch; rules: flash (pwa), arm mismatch (ios)".
    package var summary: String {
      var parts: [String] = []
      if !metrics.isEmpty { parts.append("parity of " + metrics.map(\.title).joined(separator: ", ")) }
      if !rules.isEmpty {
        parts.append(
          "rules " + rules.map { "\($0.rule.title) (\($0.platforms.joined(separator: ", ")))" }.joined(separator: ", "))
      }
      return parts.joined(separator: "; ")
    }
  }

  /// Groups that failed, with their failing metrics and rules in report order.
  package static func failures(_ report: ParityReport) -> [GroupFailure] {
    groups(report) { $0 == .fail }
  }

  /// Groups with figures that fail a `--require-data` gate for want of data, with those
  /// figures: what the gate needed and did not get.
  package static func wantingData(_ report: ParityReport) -> [GroupFailure] {
    groups(report, where: report.context.policy.wantsData)
  }

  /// What the outcome's headline names group by group: the failures, or the figures that
  /// wanted data; then, whatever the outcome, every rule broken on too few sessions for a
  /// verdict with its example sessions, so a small sample never reads as a clean one.
  package static func details(_ report: ParityReport) -> [String] {
    let groups =
      switch report.outcome {
      case .failed: failures(report)
      case .insufficientData: wantingData(report)
      case .passed, .nothingJudged: [GroupFailure]()
      }
    return groups.map { "\($0.app) \($0.group): \($0.summary)" } + smallSamples(report)
  }

  /// "padel pull ios: 2 stuck refreshes in 5 sessions: too few for a verdict (e.g. s1, s2)".
  package static func smallSamples(_ report: ParityReport) -> [String] {
    SmallSample.all(report).map {
      let examples = $0.examples.isEmpty ? "" : " (e.g. \($0.examples.joined(separator: ", ")))"
      return "\($0.app) \($0.group) \($0.platform): \($0.note)\(examples)"
    }
  }

  /// Groups with a comparison or rule whose verdict `matches`, with those metrics and rules in
  /// report order.
  private static func groups(_ report: ParityReport, where matches: (Verdict) -> Bool) -> [GroupFailure] {
    report.apps.flatMap { app in
      app.groups.compactMap { group -> GroupFailure? in
        var metrics: [ParityMetric] = []
        for comparison in group.comparisons where matches(comparison.verdict) && !metrics.contains(comparison.metric) {
          metrics.append(comparison.metric)
        }
        let rules = ProfileRule.allCases.compactMap { rule -> (rule: ProfileRule, platforms: [String])? in
          let platforms = group.platforms.filter { $0.rule(rule).map { matches($0.verdict) } == true }.map(\.platform)
          return platforms.isEmpty ? nil : (rule, platforms)
        }
        if metrics.isEmpty && rules.isEmpty { return nil }
        return GroupFailure(app: app.app, group: group.value, metrics: metrics, rules: rules)
      }
    }
  }

  /// "2 groups compared, 3 judged alone, 1 skipped".
  package static func groupCounts(_ report: ParityReport) -> String {
    func groups(_ n: Int) -> String { n == 1 ? "1 group" : "\(n) groups" }
    return "\(groups(report.count(.compared))) compared, \(report.count(.judgedAlone)) judged alone (one platform), "
      + "\(report.count(.skipped)) skipped (fewer than \(report.context.policy.minSessions) sessions)"
  }

  /// The outcome in words, without the failure list.
  package static func headline(_ report: ParityReport) -> String {
    let minSessions = report.context.policy.minSessions
    switch report.outcome {
    case .passed where report.count(.compared) == 0:
      return "Pass: each app has one platform here, judged alone: every rule with enough sessions is within "
        + "its budget (no platform to compare, so no parity was checked)."
    case .passed:
      return report.groups.flatMap(\.verdicts).contains(.insufficientData)
        ? "Pass on every figure with enough sessions: at parity and within the profile's rules; "
          + "the others had too few for a verdict."
        : "Pass: every platform is at parity with the reference and within its profile's rules."
    case .failed: return "FAIL"
    case .insufficientData:
      let none = report.groups.flatMap(\.verdicts).contains(.noData) ? "no data or " : ""
      return "FAIL: some figures have \(none)fewer than \(minSessions) sessions and --require-data was given."
    case .nothingJudged:
      guard report.groups.flatMap(\.verdicts).contains(.pass) else {
        return "No verdict: no figure had \(minSessions) sessions (see --min-sessions); nothing was checked."
      }
      return "No parity verdict: no group had two platforms to compare, so nothing was compared; "
        + "the platforms judged alone are within their profile's rules."
    }
  }

  /// The tolerances as the reports' headers print them.
  static func tolerances(_ t: ParityTolerances) -> String {
    "arm distance ±\(NumberText.format(t.armDistance)), time to arm ±\(NumberText.format(t.timeToArmMs)) ms, "
      + "visible ±\(NumberText.format(t.visibleMs)) ms, rates ±\(NumberText.format(t.ratePoints)) pts"
  }
}
