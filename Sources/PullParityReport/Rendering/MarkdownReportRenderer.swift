internal import PullParityCore
internal import PullParityStore

/// The parity report as GitHub-flavoured Markdown, to paste into a pull request: the verdict
/// first, then one table per app and group with the platforms side by side.
package struct MarkdownReportRenderer {
  package init() {}

  package func render(_ report: ParityReport) -> String {
    var out: [String] = ["# Pull-to-refresh parity", "", summary(report), ""]
    out.append(
      "\(report.sessionCount) sessions, grouped by \(Self.escape(report.groupedBy.rawValue)); "
        + "\(ParityVerdict.groupCounts(report)).")
    out.append("")
    out += ReportHeader.lines(report.context).map { "- **\($0.label)**: \(Self.escape($0.value))" }
    if report.apps.isEmpty { out += ["", "No sessions match."] }
    for app in report.apps {
      for group in app.groups { out += [""] + render(group, of: app) }
    }
    out += arrivals(report.unexpectedArrivals)
    return out.joined(separator: "\n") + "\n"
  }

  /// The `unexpected_event` breakdown: what arrived in which state, per app and platform.
  private func arrivals(_ arrivals: [UnexpectedArrival]) -> [String] {
    guard !arrivals.isEmpty else { return [] }
    return [
      "", "## unexpected_event: what arrived in which state", "", "| app | platform | arrival | events |",
      "|---|---|---|---:|",
    ]
      + arrivals.map {
        Self.row([Self.escape($0.app), Self.escape($0.platform), Self.escape($0.arrival), "\($0.count)"])
      }
  }

  private func summary(_ report: ParityReport) -> String {
    let headline = Self.escape(ParityVerdict.headline(report))
    let list = ParityVerdict.details(report).map(Self.escape)
    let details = list.isEmpty ? "" : " — " + list.joined(separator: "; ")
    switch report.outcome {
    case .passed:
      return "✅ **\(headline)**" + details
    case .failed, .insufficientData, .nothingJudged:
      return "❌ **\(headline)**" + details
    }
  }

  private func render(_ group: ParityGroup, of app: AppParity) -> [String] {
    var out = ["## \(Self.escape(app.app)) · \(Self.escape(group.dimension)) \(Self.escape(group.value))", ""]
    var about = "Profile \(Self.escape(app.profile.name)) v\(app.profile.version) · " + Self.badge(group.verdict)
    if let reference = group.referencePlatform {
      about += " · reference **\(Self.escape(reference))**"
    } else {
      about += " · one platform: no platform comparison possible, judged against the profile alone"
    }
    if !app.otherProfileVersions.isEmpty {
      about +=
        " · sessions also derived with " + app.otherProfileVersions.map { "v\($0)" }.joined(separator: ", ")
        + " (judged apart)"
    }
    out += [about, ""]
    out += metricTable(group, unit: app.profile.unit.rawValue)
    out += [""] + ruleTable(group, profile: app.profile)
    return out
  }

  private func metricTable(_ group: ParityGroup, unit: String) -> [String] {
    // The reference platform first, as in the text report.
    let ordered = group.orderedPlatforms
    let others = group.comparedPlatforms
    var header =
      ["metric"]
      + ordered.map {
        $0.platform == group.referencePlatform ? "\(Self.escape($0.platform)) (ref)" : Self.escape($0.platform)
      }
    var alignment = [":--"] + ordered.map { _ in "--:" }
    for other in others {
      header += ["Δ \(Self.escape(other.platform)) (CI)", "parity \(Self.escape(other.platform))"]
      alignment += ["--:", ":--"]
    }
    var out = [Self.row(header), Self.row(alignment)]
    let blanks = Array(repeating: "", count: others.count * 2)
    out.append(Self.row(["sessions"] + ordered.map { "\($0.sessions)" } + blanks))
    out.append(
      Self.row(
        ["done / cancelled / incomplete"] + ordered.map { "\($0.completed)/\($0.cancelled)/\($0.incomplete)" } + blanks)
    )
    for metric in ParityMetric.allCases {
      var cells = [metric.isRate ? metric.title : "\(metric.title) p50 (\(metric.unit(distance: unit)))"]
      for platform in ordered {
        cells.append(
          metric.isRate
            ? NumberText.percent(platform.rate(metric))
            : NumberText.oneDecimalOrDash(platform.distribution(metric)?.p50))
      }
      for other in others {
        let comparison = group.comparison(of: metric, for: other.platform)
        let ci = comparison?.interval.map { " (\(NumberText.interval($0)), \(NumberText.confidence($0)))" } ?? ""
        cells += [NumberText.signed(comparison?.difference) + ci, verdict(comparison, unit: unit)]
      }
      out.append(Self.row(cells))
      if !metric.isRate {
        out.append(
          Self.row(
            ["\(metric.title) p90 / p95"]
              + ordered.map {
                let d = $0.distribution(metric)
                return "\(NumberText.oneDecimalOrDash(d?.p90)) / \(NumberText.oneDecimalOrDash(d?.p95))"
              } + blanks))
      }
    }
    return out
  }

  private func ruleTable(_ group: ParityGroup, profile: Profile) -> [String] {
    var out = [
      Self.row(["rule (broken / judged)"] + group.orderedPlatforms.map { Self.escape($0.platform) } + ["budget"]),
      Self.row([":--"] + group.platforms.map { _ in "--:" } + ["--:"]),
    ]
    for rule in ProfileRule.allCases where rule.applies(to: profile) {
      let results = group.orderedPlatforms.map { $0.rule(rule) }
      let budget = group.budgetPercent(for: rule, profile: profile)
      out.append(Self.row([rule.title] + results.map(ruleCell) + ["\(NumberText.format(budget))%"]))
    }
    return out
  }

  /// The figure, then (whatever the verdict) the sessions that broke the rule, by id prefix.
  private func ruleCell(_ result: RuleResult?) -> String {
    guard let result else { return "–" }
    let figure = NumberText.percent(result.rate)
    let ids = result.examples.map { String($0.prefix(13)) }.joined(separator: ", ")
    let examples = ids.isEmpty ? "" : " · e.g. " + Self.escape(ids)
    switch result.verdict {
    case .pass: return "✅ " + figure + examples
    case .fail: return "❌ " + figure + examples
    case .insufficientData:
      return "too few: " + (result.tooFewNote.map(Self.escape) ?? figure) + examples
    case .noData, .noProfile: return "no data"
    }
  }

  private static func badge(_ verdict: Verdict) -> String {
    switch verdict {
    case .pass: "✅ pass"
    case .fail: "❌ fail"
    case .insufficientData: "too few sessions for a verdict"
    case .noData: "no data"
    case .noProfile: "no profile"
    }
  }

  private func verdict(_ comparison: MetricComparison?, unit: String) -> String {
    guard let comparison else { return "–" }
    let tolerance = NumberText.tolerance(comparison.metric, comparison.tolerance, unit: unit)
    switch comparison.verdict {
    case .pass: return "✅ " + tolerance
    case .fail: return "❌ " + tolerance
    case .insufficientData: return "too few (n=\(comparison.n))"
    case .noData, .noProfile: return "–"
    }
  }

  private static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }

  /// Names come from event logs: backslash-escape what Markdown or a table would act on, drop
  /// line breaks, which would end the table row, and show other control characters as
  /// `\u{…}` (a Markdown file is read in terminals too). GitHub also links bare URLs, `www.`
  /// names and e-mail addresses (and pings an `@user`): the `:` of `scheme://`, `mailto:` and
  /// `xmpp:`, the `.` after `www` and every `@` are escaped, which the page shows as written.
  static func escape(_ text: String) -> String {
    var out = ""
    let visible = Array(TerminalText.escaped(String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })))
    for (index, character) in visible.enumerated() {
      switch character {
      case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#", "!", "(", ")", "{", "}", "@":
        out.append("\\")
      case ":" where startsAutolink(visible, colon: index):
        out.append("\\")
      case "." where index >= 3 && String(visible[index - 3..<index]).lowercased() == "www":
        out.append("\\")
      default:
        break
      }
      out.append(character)
    }
    return out
  }

  /// Whether the `:` at `colon` ends a scheme GitHub links: letters then `//`, or `mailto`/`xmpp`.
  private static func startsAutolink(_ text: [Character], colon: Int) -> Bool {
    var start = colon
    while start > 0, text[start - 1].isASCII, text[start - 1].isLetter { start -= 1 }
    guard start < colon else { return false }
    if ["mailto", "xmpp"].contains(String(text[start..<colon]).lowercased()) { return true }
    return text[(colon + 1)...].prefix(2) == ["/", "/"]
  }
}
