package import PullParityCore

/// The verdict every format starts or ends with, computed once so that text, Markdown and HTML
/// name the same failing groups, metrics and rules.
package enum ParityVerdict {
  /// One group that failed: the metrics not at parity, and the rules broken with the platforms
  /// that broke them.
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
    report.apps.flatMap { app in
      app.groups.filter { $0.verdict == .fail }.map { group in
        var metrics: [ParityMetric] = []
        for comparison in group.comparisons where comparison.verdict == .fail && !metrics.contains(comparison.metric) {
          metrics.append(comparison.metric)
        }
        let rules = ProfileRule.allCases.compactMap { rule -> (rule: ProfileRule, platforms: [String])? in
          let platforms = group.platforms.filter { $0.rule(rule)?.verdict == .fail }.map(\.platform)
          return platforms.isEmpty ? nil : (rule, platforms)
        }
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
    switch report.outcome {
    case .passed:
      report.groups.flatMap(\.verdicts).contains(.insufficientData)
        ? "Pass on every figure with enough sessions: at parity and within the profile's rules; "
          + "the others had too few for a verdict."
        : "Pass: every platform is at parity with the reference and within its profile's rules."
    case .failed: "FAIL"
    case .insufficientData:
      "FAIL: some figures have fewer than \(report.context.policy.minSessions) sessions and --require-data was given."
    case .nothingJudged:
      "No verdict: no figure had \(report.context.policy.minSessions) sessions (see --min-sessions); nothing was checked."
    }
  }

  /// The tolerances as the reports' headers print them.
  static func tolerances(_ t: ParityTolerances) -> String {
    "arm distance ±\(NumberText.format(t.armDistance)), time to arm ±\(NumberText.format(t.timeToArmMs)) ms, "
      + "visible ±\(NumberText.format(t.visibleMs)) ms, rates ±\(NumberText.format(t.ratePoints)) pts"
  }
}
