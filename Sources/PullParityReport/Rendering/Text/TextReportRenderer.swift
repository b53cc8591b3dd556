internal import PullParityCore
internal import PullParityStore

/// The parity report for an 80-column terminal: the verdict, the context, then per app and group
/// the platforms side by side and each platform's rules.
package struct TextReportRenderer {
  package var style: TextStyle

  package init(style: TextStyle = .plain) {
    self.style = style
  }

  package func render(_ report: ParityReport) -> String {
    var out = [
      style.bold("Pull-to-refresh parity")
        + " — \(report.sessionCount) sessions, grouped by \(report.groupedBy.rawValue)",
      verdictLine(report), ParityVerdict.groupCounts(report).wrapped(width: 80, indent: "  "), "",
    ]
    for (label, value) in ReportHeader.lines(report.context) {
      out.append("\(label): \(TerminalText.escaped(value))".wrapped(width: 80, indent: "  "))
    }
    for app in report.apps {
      for group in app.groups { out.append("\n" + render(group, of: app)) }
    }
    out += arrivals(report.unexpectedArrivals)
    return out.joined(separator: "\n") + "\n"
  }

  /// The `unexpected_event` breakdown: what arrived in which state, per app and platform.
  private func arrivals(_ arrivals: [UnexpectedArrival]) -> [String] {
    guard !arrivals.isEmpty else { return [] }
    var table = TextTable(leftAligned: [1, 2])
    table.add(["app", "platform", "unexpected_event: what arrived in which state", "events"])
    for a in arrivals { table.add([a.app, a.platform, a.arrival, "\(a.count)"]) }
    return ["", table.render(indent: "")]
  }

  private func render(_ group: ParityGroup, of app: AppParity) -> String {
    let e = TerminalText.escaped
    var heading =
      "\(e(app.app)) · profile \(e(app.profile.name)) v\(app.profile.version) · \(group.dimension) \(e(group.value))"
    if let reference = group.referencePlatform { heading += " · reference \(e(reference))" }
    var lines = [style.bold(heading).wrapped(width: 80, indent: "  ")]
    if !app.otherProfileVersions.isEmpty {
      let versions = app.otherProfileVersions.map { "v\($0)" }.joined(separator: ", ")
      lines.append(
        "  Sessions of \(e(app.app)) were also derived with \(versions): judged apart.".wrapped(width: 80, indent: "  ")
      )
    }
    if group.referencePlatform == nil {
      lines.append(
        style.dim("  One platform: nothing to compare it with; judged against the profile alone."))
    }
    lines.append(metricTable(group, unit: app.profile.unit.rawValue))
    lines.append("")
    lines.append(ruleTable(group, profile: app.profile))
    lines += brokenSessions(group)
    return lines.joined(separator: "\n")
  }

  /// Whatever the verdict, the sessions that broke each rule (id prefixes: `pullparity session`
  /// takes one), and for a rule broken on too few sessions, that it had too few for a verdict.
  private func brokenSessions(_ group: ParityGroup) -> [String] {
    group.orderedPlatforms.flatMap { platform in
      platform.rules.filter { !$0.examples.isEmpty }.map { result in
        let ids = result.examples.map { TerminalText.escaped(String($0.prefix(13))) }.joined(separator: ", ")
        let note = result.tooFewNote.map { " — " + style.bad($0) } ?? ""
        return "  \(result.rule.title) on \(TerminalText.escaped(platform.platform)): e.g. \(ids)\(note)"
          .wrapped(width: 80, indent: "    ")
      }
    }
  }

  private func metricTable(_ group: ParityGroup, unit: String) -> String {
    let ordered = group.orderedPlatforms
    let others = group.comparedPlatforms
    let blanks = Array(repeating: "", count: others.count * 2)
    var table = TextTable()
    table.add(
      ["metric"] + ordered.map { TerminalText.escaped($0.platform) }
        + others.flatMap { ["Δ \(TerminalText.escaped($0.platform))", "parity"] })
    table.add(["sessions"] + ordered.map { "\($0.sessions)" } + blanks)
    table.add(["done/cancel/incompl."] + ordered.map { "\($0.completed)/\($0.cancelled)/\($0.incomplete)" } + blanks)
    for metric in ParityMetric.allCases {
      let comparisons = others.map { group.comparison(of: metric, for: $0.platform) }
      table.add(
        [Self.label(metric, unit: unit)] + ordered.map { Self.figure(metric, $0) }
          + comparisons.flatMap { [NumberText.signed($0?.difference), verdict($0, unit: unit)] })
      if !metric.isRate {
        table.add(["  p90 / p95"] + ordered.map { Self.tail(metric, $0) } + blanks)
      }
      for (other, comparison) in zip(others, comparisons) {
        guard let interval = comparison?.interval else { continue }
        let name = others.count > 1 ? " \(TerminalText.escaped(other.platform))" : ""
        // One compared platform: the confidence under the verdict it decided, so the label stays
        // as narrow as a metric's. More: one cell a row, so the table stays linear in platforms.
        guard others.count == 1 else {
          table.add(["  CI\(name) \(NumberText.interval(interval)) at \(NumberText.level(interval))"])
          continue
        }
        table.add(
          ["  CI \(NumberText.interval(interval))"] + ordered.map { _ in "" } + ["", NumberText.level(interval)])
      }
    }
    return table.render()
  }

  private func ruleTable(_ group: ParityGroup, profile: Profile) -> String {
    let rules = ProfileRule.allCases.filter { $0.applies(to: profile) }
    let ordered = group.orderedPlatforms
    var table = TextTable()
    table.add(["rule (broken / judged)"] + ordered.map { TerminalText.escaped($0.platform) } + ["budget"])
    for rule in rules {
      let cells = ordered.map { platform in platform.rule(rule).map(ruleCell) ?? "–" }
      table.add([rule.title] + cells + ["\(NumberText.format(group.budgetPercent(for: rule, profile: profile)))%"])
    }
    return table.render()
  }

  private func ruleCell(_ result: RuleResult) -> String {
    let figure = NumberText.percent(result.rate)
    switch result.verdict {
    case .pass: return style.good("ok") + " " + figure
    case .fail: return style.bad("FAIL") + " " + figure
    case .insufficientData: return style.dim("few") + " " + figure
    case .noData, .noProfile: return style.dim("no data")
    }
  }

  private func verdict(_ comparison: MetricComparison?, unit: String) -> String {
    guard let comparison else { return style.dim("n/a") }
    let tolerance = NumberText.tolerance(comparison.metric, comparison.tolerance, unit: unit)
    switch comparison.verdict {
    case .pass: return style.good("ok") + " " + style.dim(tolerance)
    case .fail: return style.bad("FAIL") + " " + tolerance
    case .insufficientData: return style.dim("few n=\(comparison.n)")
    case .noData, .noProfile: return style.dim("n/a")
    }
  }

  private func verdictLine(_ report: ParityReport) -> String {
    let headline = ParityVerdict.headline(report)
    let details = ParityVerdict.details(report).map(TerminalText.escaped)
    var text = report.outcome == .passed ? style.good(headline) : style.bad(headline)
    if !details.isEmpty { text += " — " + details.joined(separator: "; ") }
    var line = text.wrapped(width: 80, indent: "  ")
    // The legend explains "few", so only a report that printed it has one.
    if report.groups.flatMap(\.verdicts).contains(.insufficientData) {
      line += "\n" + style.dim("(few: fewer than \(report.context.policy.minSessions) sessions, no verdict either way)")
    }
    return line
  }

  /// "client arm" keeps the first column narrow enough for two platforms in 80 columns.
  private static func label(_ metric: ParityMetric, unit: String) -> String {
    let name = metric == .clientArmDistance ? "client arm" : metric.title
    return metric.isRate ? metric.title : "\(name) p50 (\(metric.unit(distance: unit)))"
  }

  private static func figure(_ metric: ParityMetric, _ platform: PlatformSummary) -> String {
    metric.isRate
      ? NumberText.percent(platform.rate(metric)) : NumberText.oneDecimalOrDash(platform.distribution(metric)?.p50)
  }

  private static func tail(_ metric: ParityMetric, _ platform: PlatformSummary) -> String {
    let d = platform.distribution(metric)
    return "\(NumberText.oneDecimalOrDash(d?.p90)) / \(NumberText.oneDecimalOrDash(d?.p95))"
  }
}
