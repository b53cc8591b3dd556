import PullParityCore

/// The parity report as RFC 4180 CSV (CRLF line ends, a header row): one row per app × group ×
/// platform × metric, for spreadsheets and dashboards. Figures carry the text report's one
/// decimal so every format shows the same numbers; the JSON format has full precision.
public struct CSVReportRenderer {
  public static let columns = [
    "app", "profile", "profile_version", "dimension", "group", "platform", "metric", "unit", "n", "p50", "p90",
    "p95", "numerator", "denominator", "rate_percent", "reference_platform", "difference", "tolerance",
    "at_parity",
  ]

  public init() {}

  public func render(_ report: ParityReport) -> String {
    var lines = [Self.line(Self.columns)]
    for app in report.apps {
      for group in app.groups {
        for platform in group.platforms {
          for metric in ParityMetric.allCases {
            lines.append(Self.line(row(metric, platform, group, app)))
          }
        }
      }
    }
    return lines.joined()
  }

  private func row(_ metric: ParityMetric, _ platform: PlatformSummary, _ group: ParityGroup, _ app: AppParity)
    -> [String]
  {
    var cells = [
      app.app, app.profile, "\(app.profileVersion)", group.dimension, group.value, platform.platform,
      metric.rawValue, metric.unit,
    ]
    if metric.isRate {
      let rate = platform.rate(metric)
      // n is the sample the rate was counted from, so every row can be filtered on sample size.
      cells += [rate.map { "\($0.denominator)" } ?? "", "", "", ""]
      cells += [
        rate.map { "\($0.numerator)" } ?? "", rate.map { "\($0.denominator)" } ?? "",
        Self.number(rate?.value.map { $0 * 100 }),
      ]
    } else {
      let distribution = platform.distribution(metric)
      cells += [
        distribution.map { "\($0.n)" } ?? "", Self.number(distribution?.p50), Self.number(distribution?.p90),
        Self.number(distribution?.p95), "", "", "",
      ]
    }
    let comparison = group.comparisons.first { $0.metric == metric && $0.platform == platform.platform }
    cells += [
      group.referencePlatform ?? "",
      Self.number(comparison?.difference),
      comparison.map { NumberText.format($0.tolerance) } ?? "",
      comparison?.atParity.map { $0 ? "true" : "false" } ?? "",
    ]
    return cells
  }

  private static func number(_ value: Double?) -> String {
    value.map(Formatting.oneDecimal) ?? ""
  }

  private static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
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
