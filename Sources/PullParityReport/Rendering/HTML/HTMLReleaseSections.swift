internal import PullParityCore
internal import PullParityStore

/// The HTML report's answer to "did this release make it better": each app's newest version
/// against the one before it, as `compare` judges them, and every failing rule day by day.
struct HTMLReleaseSections {
  var input: ReportRenderInput
  var palette: ChartPalette

  /// The version-against-version figures per app and platform; a note when no platform of any
  /// app has two versions in the selection.
  func releases() -> [String] {
    var out = [
      "<section id=\"releases\"><h2>Newest version against the previous one</h2>",
      "<p class=\"note\">What <code>pullparity compare</code> says, per app and platform, for pulls of the newest app "
        + "version against the version before it: hollow dot the previous version, filled dot the newest.</p>",
    ]
    if input.releases.isEmpty {
      out.append("<p class=\"note\">No platform of an app has two versions among these sessions.</p>")
    }
    out.append("<div class=\"charts\">")
    let axes = VersionChart.Axes(input.releases)
    for (index, comparison) in input.releases.enumerated() {
      out.append(release(comparison, index: index, axes: axes))
    }
    out += ["</div>", "</section>"]
    return out
  }

  private func release(_ comparison: CohortComparison, index: Int, axes: VersionChart.Axes) -> String {
    let app = comparison.apps.first ?? ""
    let platform = comparison.candidate.filter.platform ?? ""
    let before = comparison.baseline.filter.appVersion ?? ""
    let after = comparison.candidate.filter.appVersion ?? ""
    let chart = VersionChart(id: "release.\(index)", comparison: comparison, axes: axes)
    let command =
      "pullparity compare --app \(app) --baseline \(comparison.baseline.selector) --candidate \(comparison.candidate.selector)"
    return "<figure class=\"chart release\" data-app=\"\(e(app))\" data-platform=\"\(e(platform))\" "
      + "data-baseline=\"\(e(before))\" data-candidate=\"\(e(after))\">\n"
      + "<figcaption><strong>\(e(app)) on \(e(platform)): \(e(before)) → \(e(after))</strong> "
      + outcome(comparison.outcome)
      + "<br><small>\(comparison.baselineSessions) against \(comparison.candidateSessions) pulls · "
      + "<code>\(e(command))</code></small></figcaption>\n" + chart.render() + "\n</figure>"
  }

  private func outcome(_ outcome: GateOutcome) -> String {
    switch outcome {
    case .passed: "<span class=\"badge good\">✓ no regression</span>"
    case .failed: "<span class=\"badge bad\">✗ regressed</span>"
    case .insufficientData, .nothingJudged: "<span class=\"badge none\">too few sessions</span>"
    }
  }

  /// A chart per failing rule of each app, a line per platform.
  func trends(_ trends: [RuleTrend]) -> [String] {
    var out = [
      "<section id=\"trends\"><h2>Failing rules day by day</h2>",
      "<p class=\"note\">Each rule some platform fails, per UTC day and platform: the share of the day's sessions "
        + "(of every group) that broke it. A break in a line is a day with no session the rule applies to.</p>",
    ]
    if trends.isEmpty {
      // "No rule fails." only when no session broke any rule: rules broken on too few sessions
      // for a verdict are named, with their sessions, rather than called clean.
      let few = ParityVerdict.smallSamples(input.report)
      let why =
        if !FailingRule.all(input.report).isEmpty {
          "No sessions to count days from."
        } else if !few.isEmpty {
          "No rule fails with enough sessions for a verdict, but: " + few.joined(separator: "; ") + "."
        } else if !FailingRule.broken(input.report).isEmpty {
          "No rule fails: the sessions that broke a rule are within its budget."
        } else {
          "No rule fails."
        }
      out.append("<p class=\"note\">\(e(why))</p>")
    }
    out.append("<div class=\"charts\">")
    for (index, trend) in trends.enumerated() {
      let chart = TrendChart(id: "trend.\(index)", trend: trend, palette: palette)
      out.append(
        "<figure class=\"chart trend\" data-app=\"\(e(trend.app))\" data-rule=\"\(e(trend.rule.rawValue))\" "
          + "data-platforms=\"\(e(trend.series.map(\.platform).joined(separator: " ")))\">\n"
          + "<figcaption><strong>\(e(trend.rule.title))</strong> · \(e(trend.app))</figcaption>\n" + chart.render()
          + "\n</figure>")
    }
    out += ["</div>", "</section>"]
    return out
  }

  private func e(_ text: String) -> String { HTMLEscaping.escape(text) }
}
