import PullParityCore

/// The parity report for an 80-column terminal.
public struct TextReportRenderer {
  public var style: TextStyle

  public init(style: TextStyle = .plain) {
    self.style = style
  }

  public func render(_ report: ParityReport) -> String {
    var out: [String] = []
    let t = report.tolerances
    let sessions = ParityVerdict.sessionCount(report)
    out.append(
      style.bold("Pull-to-refresh parity") + " — \(sessions) sessions, grouped by \(report.groupedBy.rawValue)")
    out.append(
      "Tolerances: arm ±\(NumberText.format(t.armDistance)) pt, time to arm ±\(NumberText.format(t.timeToArmMs)) ms, "
        + "visible ±\(NumberText.format(t.visibleMs)) ms, rates ±\(NumberText.format(t.ratePoints)) pts")
    if report.apps.isEmpty { out.append("\nNo sessions match. Run `pullparity ingest` first, or loosen the filters.") }
    for app in report.apps {
      for group in app.groups { out.append("\n" + render(group, of: app)) }
    }
    out.append("")
    out.append(verdictLine(report))
    return out.joined(separator: "\n") + "\n"
  }

  private func render(_ group: ParityGroup, of app: AppParity) -> String {
    var heading = "\(app.app) · profile \(app.profile) v\(app.profileVersion) · \(group.dimension) \(group.value)"
    if let reference = group.referencePlatform { heading += " · reference \(reference)" }
    var table = TextTable()
    let others = group.platforms.filter { $0.platform != group.referencePlatform }
    let ordered = group.platforms.sorted { lhs, _ in lhs.platform == group.referencePlatform }
    var header = ["metric"] + ordered.map(\.platform)
    let compared = group.referencePlatform != nil
    if compared {
      for other in others { header += ["Δ \(other.platform)", "parity"] }
    }
    table.add(header)
    table.add(["sessions"] + ordered.map { "\($0.sessions)" } + padding(compared, others.count))
    table.add(
      ["done/cancel/incompl."] + ordered.map { "\($0.completed)/\($0.cancelled)/\($0.incomplete)" }
        + padding(compared, others.count))

    for metric in ParityMetric.allCases {
      // "client arm" keeps the first column narrow enough for two platforms in 80 columns.
      let name = metric == .clientArmDistance ? "client arm" : metric.title
      let label = metric.isRate ? metric.title : "\(name) p50 (\(metric.unit))"
      var row = [label]
      for platform in ordered {
        row.append(
          metric.isRate
            ? Formatting.percent(platform.rate(metric)) : Formatting.number(platform.distribution(metric)?.p50))
      }
      if compared {
        for other in others {
          let comparison = group.comparisons.first { $0.metric == metric && $0.platform == other.platform }
          row.append(Formatting.signed(comparison?.difference))
          row.append(verdict(comparison))
        }
      }
      table.add(row)
      if !metric.isRate {
        table.add(
          ["  p90 / p95"]
            + ordered.map {
              let d = $0.distribution(metric)
              return "\(Formatting.number(d?.p90)) / \(Formatting.number(d?.p95))"
            } + padding(compared, others.count))
      }
    }
    return style.bold(heading) + "\n" + table.render()
  }

  private func padding(_ compared: Bool, _ others: Int) -> [String] {
    compared ? Array(repeating: "", count: others * 2) : []
  }

  private func verdict(_ comparison: MetricComparison?) -> String {
    guard let comparison, let atParity = comparison.atParity else { return style.dim("n/a") }
    let tolerance = Formatting.tolerance(comparison.metric, comparison.tolerance)
    return atParity ? style.good("ok") + " " + style.dim(tolerance) : style.bad("FAIL") + " " + tolerance
  }

  private func verdictLine(_ report: ParityReport) -> String {
    let failing = ParityVerdict.failures(report).map { failure in
      "\(failure.app) \(failure.group): \(failure.metrics.map(\.title).joined(separator: ", "))"
    }
    guard !failing.isEmpty else { return style.good("All compared platforms are at parity.") }
    return (style.bad("Not at parity") + " — " + failing.joined(separator: "; ")).wrapped(width: 80, indent: "  ")
  }
}
