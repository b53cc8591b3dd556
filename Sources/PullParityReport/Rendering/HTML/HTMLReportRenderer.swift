internal import PullParityCore
internal import PullParityStore

/// The parity report as one self-contained HTML file: inline CSS and SVG, no script, nothing
/// fetched, so it can be mailed, attached to a ticket or opened offline. Tables show the same
/// figures as the text report; charts add what a table cannot, the per-session spread.
package struct HTMLReportRenderer {
  package init() {}

  /// The distance and time metrics drawn as box plots, with what each measures.
  static let distributionCharts: [(metric: ParityMetric, about: String)] = [
    (.armDistance, "finger travel at the sample the profile arms on"),
    (.clientArmDistance, "finger travel where the client said it armed"),
    (.timeToArmMs, "from pull_start to arming"),
    (.visibleMs, "refreshing indicator shown until hidden"),
  ]

  package func render(_ input: ReportRenderInput) -> String {
    let report = input.report
    let palette = ChartPalette(platforms: report.apps.flatMap(\.groups).flatMap(\.platforms).map(\.platform))
    var body = header(input)
    if report.apps.isEmpty {
      body.append("<p>No sessions match.</p>")
    } else {
      // The release review first: did the newest version make it better, and day by day.
      let release = HTMLReleaseSections(input: input, palette: palette)
      body += release.releases() + release.trends(input.detail.trends)
    }
    for (appIndex, app) in report.apps.enumerated() {
      body += section(app, index: appIndex, detail: input.detail, palette: palette)
    }
    body += arrivals(report.unexpectedArrivals)
    body.append(timelines(input))
    body.append(
      "<footer>pullparity report, format version \(ParityReport.formatVersion). Percentiles interpolate linearly"
        + " between closest ranks of the per-session values.</footer>")
    return page(title: input.title, body: body)
  }

  /// The `unexpected_event` breakdown: what arrived in which state, per app and platform.
  private func arrivals(_ arrivals: [UnexpectedArrival]) -> [String] {
    guard !arrivals.isEmpty else { return [] }
    let rows = arrivals.map {
      "<tr>" + HTMLCell.td(e($0.app), label: "app") + HTMLCell.td(e($0.platform), label: "platform")
        + HTMLCell.td(e($0.arrival), label: "arrival") + HTMLCell.td("\($0.count)", label: "events") + "</tr>"
    }
    return [
      "<section id=\"unexpected\"><h2>unexpected_event: what arrived in which state</h2>",
      "<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">app</th><th scope=\"col\">platform</th>"
        + "<th scope=\"col\">arrival</th><th scope=\"col\">events</th></tr></thead><tbody>",
    ] + rows + ["</tbody></table></div></section>"]
  }

  /// The title, the verdict, the report's context and links to each app.
  private func header(_ input: ReportRenderInput) -> [String] {
    let report = input.report
    var lines = ["<header>", "<h1>\(e(input.title))</h1>"]
    lines.append(
      "<p class=\"meta\">\(report.sessionCount) sessions · grouped by \(e(report.groupedBy.rawValue))"
        + " · \(e(ParityVerdict.groupCounts(report)))</p>")
    lines.append(verdict(report))
    lines.append(context(report.context))
    if !report.apps.isEmpty {
      var links = ["<a href=\"#releases\">newest version</a>", "<a href=\"#trends\">day by day</a>"]
      links += report.apps.enumerated().map { "<a href=\"#app-\($0.offset)\">\(e($0.element.app))</a>" }
      if !input.timelines.isEmpty { links.append("<a href=\"#examples\">example failing sessions</a>") }
      lines.append("<nav aria-label=\"Contents\">" + links.joined(separator: " ") + "</nav>")
    }
    lines.append("</header>")
    return lines
  }

  /// One app: its profile, a note on other profile versions, then each group.
  private func section(
    _ app: AppParity, index appIndex: Int, detail: HTMLSessionDetail, palette: ChartPalette
  ) -> [String] {
    let profile = app.profile
    var lines = ["<section class=\"app\" id=\"app-\(appIndex)\">", "<h2>\(e(app.app))</h2>"]
    lines.append("<p class=\"meta\">\(e(Self.describe(profile)))</p>")
    if !app.otherProfileVersions.isEmpty {
      let versions = app.otherProfileVersions.map { "v\($0)" }.joined(separator: ", ")
      lines.append("<p class=\"note\">Sessions of this app were also derived with \(e(versions)): judged apart.</p>")
    }
    for (groupIndex, group) in app.groups.enumerated() {
      let metrics = detail.values(app: app.app, version: profile.version, group: group.value)
      lines.append(
        render(group, metrics: metrics, profile: profile, palette: palette, id: "a\(appIndex).g\(groupIndex)"))
    }
    lines.append("</section>")
    return lines
  }

  /// The HTML document around the body: inline style sheet, nothing fetched.
  private func page(title: String, body: [String]) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(e(title))</title>
    <style>
    \(HTMLStyleSheet.css)
    </style>
    </head>
    <body>
    <main>
    \(body.joined(separator: "\n"))
    </main>
    </body>
    </html>

    """
  }

  private func e(_ text: String) -> String { HTMLEscaping.escape(text) }

  private func verdict(_ report: ParityReport) -> String {
    let headline = e(ParityVerdict.headline(report))
    let list = ParityVerdict.details(report)
    let details = list.isEmpty ? "" : " <span>— \(e(list.joined(separator: "; ")))</span>"
    switch report.outcome {
    case .passed:
      return "<p class=\"verdict good\">✓ \(headline)\(details)</p>"
    case .failed, .insufficientData, .nothingJudged:
      return "<p class=\"verdict bad\">✗ \(headline)\(details)</p>"
    }
  }

  private func context(_ context: ReportContext) -> String {
    let rows = ReportHeader.lines(context).map { "<dt>\(e($0.label))</dt><dd>\(e($0.value))</dd>" }
    return "<dl class=\"context\">" + rows.joined() + "</dl>"
  }

  static func describe(_ profile: Profile) -> String {
    let unit = profile.unit.rawValue
    var parts = ["profile \(profile.name) v\(profile.version)"]
    if let threshold = armingPoint(profile) {
      parts.append(
        profile.resistance == .factor(1)
          ? "arms at \(NumberText.oneDecimalOrDash(threshold)) \(unit)"
          : "arms at \(NumberText.format(profile.armThreshold ?? 0)) drawn (resistance \(profile.resistance.description))"
            + " = \(NumberText.oneDecimalOrDash(threshold)) \(unit) of finger travel")
    } else {
      parts.append("arming as the client reports it")
    }
    parts.append("min hold \(NumberText.format(profile.minHoldMs)) ms")
    parts.append("hide slack \(NumberText.format(profile.hideSlackMs)) ms")
    return parts.joined(separator: " · ")
  }

  /// Where the profile arms in finger travel, the unit arm distances are logged in.
  static func armingPoint(_ profile: Profile) -> Double? {
    guard let threshold = profile.armThreshold else { return nil }
    return profile.resistance.finger(forDrawn: threshold)
  }

  private func render(
    _ group: ParityGroup, metrics: [String: HTMLSessionDetail.Values], profile: Profile, palette: ChartPalette,
    id: String
  ) -> String {
    var out = [heading(group)]
    if group.referencePlatform == nil {
      out.append(
        "<p class=\"note\">One platform: no platform comparison possible; judged against the profile alone.</p>")
    }
    out.append(table(group, ordered: group.orderedPlatforms, unit: profile.unit.rawValue))
    out.append(HTMLRuleTable(group: group, profile: profile).render())
    let figures = charts(group, metrics: metrics, profile: profile, palette: palette, id: id)
    if !figures.isEmpty {
      out.append(
        "<p class=\"note legend\">Box plots: box p25–p75, thick bar p50, whiskers p5–p95, a dot per session "
          + "(\(DistributionChart.maxDots) evenly spaced by rank when there are more); dashed red: the profile's threshold.</p>"
      )
      out.append("<div class=\"charts\">\n" + figures.joined(separator: "\n") + "\n</div>")
    }
    return out.joined(separator: "\n")
  }

  private func heading(_ group: ParityGroup) -> String {
    let badge: String =
      switch group.verdict {
      case .pass: "<span class=\"badge good\">✓ pass</span>"
      case .fail: "<span class=\"badge bad\">✗ fail</span>"
      case .insufficientData: "<span class=\"badge none\">too few sessions</span>"
      case .noData, .noProfile: "<span class=\"badge none\">no data</span>"
      }
    let reference = group.referencePlatform.map { " · reference \(e($0))" } ?? ""
    return "<h3>\(e(group.dimension)) \(e(group.value))\(reference) \(badge)</h3>"
  }

  /// A box plot per distribution metric with values, then the violation rates: each a figure.
  private func charts(
    _ group: ParityGroup, metrics: [String: HTMLSessionDetail.Values], profile: Profile, palette: ChartPalette,
    id: String
  ) -> [String] {
    let ordered = group.orderedPlatforms
    let failing = Set(group.comparisons.filter { $0.verdict == .fail }.map(\.metric))
    var figures: [String] = []
    for (metric, about) in Self.distributionCharts {
      let rows = ordered.map { summary in
        DistributionChart.Row(
          platform: summary.platform,
          values: metrics[summary.platform]?.values(metric) ?? [])
      }
      let chart = DistributionChart(
        id: "\(id).\(metric.rawValue)", metric: metric, rows: rows, threshold: threshold(metric, profile),
        palette: palette, distanceUnit: profile.unit.rawValue)
      guard chart.hasValues else { continue }
      let flag = failing.contains(metric) ? " <span class=\"bad\">✗ p50 not at parity</span>" : ""
      figures.append(
        "<figure class=\"chart\">\n<figcaption><strong>\(e(metric.title.capitalizedFirst))</strong> (\(e(metric.unit(distance: profile.unit.rawValue))))\(flag)"
          + "<br><small>\(e(about))</small></figcaption>\n"
          + chart.render() + "\n</figure>")
    }
    if let histogram = releaseHistogram(ordered, metrics: metrics, profile: profile, palette: palette, id: id) {
      figures.append(histogram)
    }
    let rates = RateChart(id: "\(id).rates", platforms: ordered, failing: failing, palette: palette)
    if rates.markCount > 0 {
      figures.append(
        "<figure class=\"chart\">\n<figcaption><strong>Violation rates</strong> (% of sessions)"
          + "<br><small>each with the sessions it was counted from</small></figcaption>\n" + rates.render()
          + "\n</figure>")
    }
    return figures
  }

  /// Where fingers lifted against the arming point, for profiles that have one.
  private func releaseHistogram(
    _ ordered: [PlatformSummary], metrics: [String: HTMLSessionDetail.Values], profile: Profile, palette: ChartPalette,
    id: String
  ) -> String? {
    guard let armingPoint = Self.armingPoint(profile), armingPoint > 0 else { return nil }
    let nearMiss = profile.armThreshold.flatMap {
      profile.resistance.finger(forDrawn: SessionMetrics.nearMissShare * $0)
    }
    let histogram = ReleaseHistogram(
      id: "\(id).release",
      rows: ordered.map {
        .init(platform: $0.platform, values: metrics[$0.platform]?.releases ?? [])
      },
      armingPoint: armingPoint, nearMissPoint: nearMiss, unit: profile.unit.rawValue, palette: palette)
    guard histogram.hasValues else { return nil }
    return "<figure class=\"chart\">\n<figcaption><strong>Release distance</strong> (\(e(profile.unit.rawValue)))"
      + "<br><small>where fingers lifted; red: the arming point, grey: 80 % of it (a cancel past it is a near miss)"
      + "</small></figcaption>\n" + histogram.render() + "\n</figure>"
  }

  private func threshold(_ metric: ParityMetric, _ profile: Profile) -> DistributionChart.Threshold? {
    switch metric {
    case .armDistance, .clientArmDistance:
      return Self.armingPoint(profile).map {
        .init(value: $0, label: "arms at \(NumberText.oneDecimalOrDash($0)) \(profile.unit.rawValue)")
      }
    case .visibleMs:
      guard profile.minHoldMs > 0 else { return nil }
      return .init(value: profile.minHoldMs, label: "min hold \(NumberText.format(profile.minHoldMs)) ms")
    default:
      return nil
    }
  }

  private func table(_ group: ParityGroup, ordered: [PlatformSummary], unit: String) -> String {
    let others = group.comparedPlatforms
    var rows: [String] = []
    var header = "<tr><th scope=\"col\">metric</th>"
    for platform in ordered {
      let ref = platform.platform == group.referencePlatform ? " <span class=\"ref\">ref</span>" : ""
      header += "<th scope=\"col\">\(e(platform.platform))\(ref)</th>"
    }
    for other in others {
      header += "<th scope=\"col\">Δ \(e(other.platform))</th><th scope=\"col\">parity \(e(other.platform))</th>"
    }
    header += "</tr>"
    let labels = ordered.map { e($0.platform) }
    let blanks = String(repeating: "<td></td>", count: others.count * 2)
    rows.append(
      "<tr><th scope=\"row\">sessions</th>"
        + zip(ordered, labels).map { HTMLCell.td("\($0.sessions)", label: $1) }.joined() + blanks + "</tr>")
    rows.append(
      "<tr><th scope=\"row\">done / cancelled / incomplete</th>"
        + zip(ordered, labels).map { HTMLCell.td("\($0.completed)/\($0.cancelled)/\($0.incomplete)", label: $1) }
        .joined() + blanks + "</tr>")

    for metric in ParityMetric.allCases {
      let comparisons = others.map { group.comparison(of: metric, for: $0.platform) }
      let failing = comparisons.contains { $0?.verdict == .fail }
      var row = "<tr\(failing ? " class=\"failing\"" : "")><th scope=\"row\">"
      row += metric.isRate ? e(metric.title) : "\(e(metric.title)) p50 (\(e(metric.unit(distance: unit))))"
      row += "</th>"
      for (platform, label) in zip(ordered, labels) {
        if metric.isRate {
          row += HTMLCell.td(e(NumberText.percent(platform.rate(metric))), label: label)
        } else {
          let d = platform.distribution(metric)
          let spread =
            d?.p50 == nil
            ? ""
            : "<span class=\"sub\">p90 \(NumberText.oneDecimalOrDash(d?.p90)) · p95 \(NumberText.oneDecimalOrDash(d?.p95))</span>"
          row += HTMLCell.td("\(NumberText.oneDecimalOrDash(d?.p50))\(spread)", label: label)
        }
      }
      for (comparison, other) in zip(comparisons, others) {
        let ci =
          comparison?.interval.map {
            "<span class=\"sub\">\(NumberText.confidence($0)) \(e(NumberText.interval($0)))</span>"
          } ?? ""
        row += HTMLCell.td("\(NumberText.signed(comparison?.difference))\(ci)", label: "Δ \(e(other.platform))")
        row +=
          comparison.map { verdictCell($0, unit: unit, label: "parity \(e(other.platform))") }
          ?? HTMLCell.td("–", label: "parity \(e(other.platform))", cssClass: "na")
      }
      rows.append(row + "</tr>")
    }
    return "<div class=\"table-wrap\"><table>\n<thead>\(header)</thead>\n<tbody>\n" + rows.joined(separator: "\n")
      + "\n</tbody>\n</table></div>"
  }

  private func verdictCell(_ comparison: MetricComparison, unit: String, label: String) -> String {
    let tolerance = e(NumberText.tolerance(comparison.metric, comparison.tolerance, unit: unit))
    switch comparison.verdict {
    case .pass: return HTMLCell.td("✓ \(tolerance)", label: label, cssClass: "ok")
    case .fail: return HTMLCell.td("✗ \(tolerance)", label: label, cssClass: "fail")
    case .insufficientData: return HTMLCell.td("too few (n=\(comparison.n))", label: label, cssClass: "na")
    case .noData, .noProfile: return HTMLCell.td("–", label: label, cssClass: "na")
    }
  }

  private func timelines(_ input: ReportRenderInput) -> String {
    guard !input.timelines.isEmpty else { return "" }
    var out = ["<section id=\"examples\">", "<h2>Example failing sessions</h2>"]
    out.append(
      "<p class=\"note\">A session for each rule that some session broke, per app and platform, whatever its "
        + "verdict (the first by id that broke it; failing rules first, then those with too few sessions for a "
        + "verdict; at most \(SessionTimeline.maxExamples) in all). The green band is the time the indicator was visible; the dashed line, where the profile's minimum hold ends. "
        + "Replay one with <code>pullparity session &lt;id&gt;</code>.</p>")
    for (index, timeline) in input.timelines.enumerated() {
      out += figure(timeline, index: index, input)
    }
    out += withoutExample(input)
    out.append("</section>")
    return out.joined(separator: "\n")
  }

  /// One example session: its timeline, its violations and all its events.
  private func figure(_ timeline: SessionTimeline, index: Int, _ input: ReportRenderInput) -> [String] {
    let version = timeline.profileVersion
    let profile = input.report.apps.first {
      ByteIdentity($0.app) == ByteIdentity(timeline.app) && (version == nil || $0.profile.version == version)
    }
    let chart = TimelineChart(id: "timeline.\(index)", timeline: timeline, minHoldMs: profile?.profile.minHoldMs ?? 0)
    let example = timeline.example.map {
      " data-app=\"\(e($0.app))\" data-platform=\"\(e($0.platform))\" data-rule=\"\(e($0.rule.rawValue))\""
    }
    let heading = timeline.example.map { example in
      let verdict = Self.exampleVerdict(example, input.report).map { " · \(e($0))" } ?? ""
      return "Example of \(e(example.rule.title)) · \(e(example.app)) on \(e(example.platform))\(verdict)<br>"
    }
    var out = [
      "<figure class=\"chart timeline\"\(example ?? "")>",
      "<figcaption>\(heading ?? "")<strong>\(e(timeline.title))</strong><br><small>session <code>\(e(timeline.sessionID))</code></small></figcaption>",
      "<div class=\"scroll\">\n" + chart.render() + "\n</div>",
    ]
    if timeline.marks.count < timeline.eventCount || timeline.violations.count < timeline.violationCount {
      // A page draws a bounded number of marks, however long the session: say which.
      out.append(
        "<p class=\"note\">Drawn: \(timeline.marks.count) of \(timeline.eventCount) events and "
          + "\(timeline.violations.count) of \(timeline.violationCount) violations, evenly spaced in log order (the "
          + "first and the last, and where the indicator showed and hid, always). "
          + "<code>pullparity session</code> replays every one.</p>")
    }
    if !timeline.violations.isEmpty {
      out.append(
        "<ul>"
          + timeline.violations.map {
            "<li><span class=\"kind\">\(e($0.label))</span> at +\(NumberText.oneDecimal($0.offsetMs)) ms: \(e($0.detail))</li>"
          }.joined() + "</ul>")
    }
    let listed =
      timeline.marks.count < timeline.eventCount
      ? "\(timeline.marks.count) of \(timeline.eventCount) events" : "All \(timeline.eventCount) events"
    out.append(
      "<details><summary>\(listed)</summary><div class=\"table-wrap\"><table class=\"events\">")
    out.append(
      "<thead><tr><th scope=\"col\">+ms</th><th scope=\"col\">event</th><th scope=\"col\">detail</th></tr></thead><tbody>"
    )
    for mark in timeline.marks {
      out.append(
        "<tr>" + HTMLCell.td(NumberText.oneDecimal(mark.offsetMs), label: "+ms")
          + HTMLCell.td(e(mark.label), label: "event") + HTMLCell.td(e(mark.detail), label: "detail") + "</tr>")
    }
    out += ["</tbody></table></div></details>", "</figure>"]
    return out
  }
}

extension HTMLReportRenderer {
  /// The failing rules no example was drawn for (beyond the bound, or no stored session found).
  private func withoutExample(_ input: ReportRenderInput) -> [String] {
    let drawn = input.timelines.compactMap(\.example)
    let missing = (FailingRule.all(input.report) + FailingRule.tooFew(input.report)).filter { !drawn.contains($0) }
    guard !missing.isEmpty else { return [] }
    let names = missing.map { "\($0.rule.title) (\($0.app) on \($0.platform))" }.joined(separator: ", ")
    return ["<p class=\"note\">No example drawn for: \(e(names)).</p>"]
  }
}

extension HTMLReportRenderer {
  /// What the example's rule came to where it was judged: a failure, or (for a rule broken on
  /// too few sessions) "2 stuck refreshes in 5 sessions: too few for a verdict".
  fileprivate static func exampleVerdict(_ example: FailingRule, _ report: ParityReport) -> String? {
    let results = report.apps.filter { ByteIdentity($0.app) == ByteIdentity(example.app) }
      .flatMap(\.groups).flatMap(\.platforms)
      .filter { ByteIdentity($0.platform) == ByteIdentity(example.platform) }
      .compactMap { $0.rule(example.rule) }
    if results.contains(where: { $0.verdict == .fail }) { return "fails" }
    return results.lazy.compactMap(\.tooFewNote).first ?? (results.isEmpty ? nil : "within its budget")
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
