internal import PullParityCore
internal import PullParityStore

/// The parity report as RFC 4180 CSV (CRLF line ends, a header row): one row per app × group ×
/// platform × metric, then one per app × group × platform × rule, for spreadsheets and
/// dashboards. Figures carry the text report's one decimal so every format shows the same
/// numbers; the JSON format has full precision. CSV has no place for a preamble, so the
/// report's context (database, filter, session span, tool, time, pending) closes every row.
package struct CSVReportRenderer {
  package static let columns = [
    "app", "profile", "profile_version", "dimension", "group", "platform", "kind", "metric", "unit", "n", "p50",
    "p90", "p95", "numerator", "denominator", "rate_percent", "reference_platform", "difference", "ci_low",
    "ci_high", "ci_confidence", "tolerance", "budget_percent", "verdict", "database", "filter", "first_session",
    "last_session", "tool_version", "generated_at", "pending", "examples", "note",
  ]

  package init() {}

  package func render(_ report: ParityReport) -> String {
    var lines = [Self.line(Self.columns)]
    let context = Self.context(report.context)
    for app in report.apps {
      for group in app.groups {
        for platform in group.platforms {
          let prefix = [
            Self.text(app.app), Self.text(app.profile.name), "\(app.profile.version)", group.dimension,
            Self.text(group.value), Self.text(platform.platform),
          ]
          for metric in ParityMetric.allCases {
            lines.append(
              Self.line(
                prefix + metricCells(metric, platform, group, unit: app.profile.unit.rawValue) + context + ["", ""]))
          }
          for rule in platform.rules {
            // Whatever the verdict, the sessions that broke the rule (ids separated by spaces),
            // and for a rule broken on too few sessions, that it had too few for a verdict.
            let examples = rule.examples.map(Self.text).joined(separator: " ")
            lines.append(Self.line(prefix + ruleCells(rule) + context + [examples, rule.tooFewNote ?? ""]))
          }
        }
      }
    }
    // The `unexpected_event` breakdown: a row per arrival, its count as n.
    for a in report.unexpectedArrivals {
      var cells = [Self.text(a.app), "", "", "", "", Self.text(a.platform), "unexpected_arrival", Self.text(a.arrival)]
      cells += ["events", "\(a.count)"] + Array(repeating: "", count: 14)
      lines.append(Self.line(cells + context + ["", ""]))
    }
    return lines.joined()
  }

  private func metricCells(_ metric: ParityMetric, _ platform: PlatformSummary, _ group: ParityGroup, unit: String)
    -> [String]
  {
    var cells = ["metric", metric.rawValue, metric.unit(distance: unit)]
    if metric.isRate {
      let rate = platform.rate(metric)
      // n is the sample the rate was counted from, so every row can be filtered on sample size.
      cells += [rate.map { "\($0.denominator)" } ?? "", "", "", ""] + Self.rate(rate)
    } else {
      let distribution = platform.distribution(metric)
      cells += [
        distribution.map { "\($0.n)" } ?? "", Self.number(distribution?.p50), Self.number(distribution?.p90),
        Self.number(distribution?.p95), "", "", "",
      ]
    }
    let comparison = group.comparison(of: metric, for: platform.platform)
    cells += [
      Self.text(group.referencePlatform ?? ""), Self.number(comparison?.difference),
    ]
    cells +=
      Self.interval(comparison?.interval) + [
        comparison.map { NumberText.format($0.tolerance) } ?? "", "", comparison?.verdict.rawValue ?? "",
      ]
    return cells
  }

  private func ruleCells(_ result: RuleResult) -> [String] {
    ["rule", result.rule.rawValue, "%", "\(result.rate.denominator)", "", "", ""] + Self.rate(result.rate)
      + ["", ""] + Self.interval(result.interval) + [
        "", NumberText.format(result.budgetPercent), result.verdict.rawValue,
      ]
  }

  /// The interval of a verdict and its confidence (`0.9979`); blank for a bound the data
  /// cannot set, and without a verdict.
  private static func interval(_ interval: JudgedInterval?) -> [String] {
    [
      number(interval.flatMap { JudgedInterval.finite($0.low) }),
      number(interval.flatMap { JudgedInterval.finite($0.high) }),
      interval.map { NumberText.format(Measured.rounded($0.confidence, places: 4)) } ?? "",
    ]
  }

  private static func context(_ context: ReportContext) -> [String] {
    [
      text(context.database), text(ReportHeader.filter(context.filter)),
      context.firstSessionMs.map(ReportContext.rfc3339) ?? "",
      context.lastSessionMs.map(ReportContext.rfc3339) ?? "", context.toolVersion,
      ReportContext.rfc3339(context.generatedAtMs),
      // v1.2: the judgements waiting for the data, said on every row; empty when none is.
      text(ReportHeader.pending(context.pending) ?? ""),
    ]
  }

  private static func rate(_ rate: Rate?) -> [String] {
    [rate.map { "\($0.numerator)" } ?? "", rate.map { "\($0.denominator)" } ?? "", number(rate?.percent)]
  }

  private static func number(_ value: Double?) -> String {
    value.map(NumberText.oneDecimal) ?? ""
  }

  private static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }

  /// A cell of text from the logs: control characters other than line breaks (which a quoted
  /// cell holds) shown as `\u{…}` (CSV is read in terminals too), and a leading `=`, `+`, `-`,
  /// `@`, tab or carriage return (OWASP's list: a spreadsheet skips the last two and runs what
  /// follows) made inert with a `'`, so that a spreadsheet shows it rather than running it as a
  /// formula.
  static func text(_ value: String) -> String {
    let visible = TerminalText.escapedKeepingLineBreaks(value)
    // By scalar: "\r\n" is one Character, which no one-scalar Character equals.
    guard let first = visible.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return visible }
    return "'" + visible
  }

  /// Quoted when it holds a comma, a quote or a line break; quotes inside are doubled.
  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    var quoted = "\""
    for character in text {
      quoted += character == "\"" ? "\"\"" : String(character)
    }
    return quoted + "\""
  }
}
