import PullParityCore

/// The parity report as GitHub-flavoured Markdown, to paste into a pull request: the verdict
/// first, then one table per app and group with the platforms side by side.
public struct MarkdownReportRenderer {
  public init() {}

  public func render(_ report: ParityReport) -> String {
    var out: [String] = ["# Pull-to-refresh parity", "", summary(report), ""]
    out.append(
      "\(ParityVerdict.sessionCount(report)) sessions, grouped by \(Self.escape(report.groupedBy.rawValue)). "
        + "Tolerances: \(ParityVerdict.tolerances(report.tolerances)).")
    if report.apps.isEmpty {
      out += ["", "No sessions match. Run `pullparity ingest` first, or loosen the filters."]
    }
    for app in report.apps {
      for group in app.groups { out += [""] + render(group, of: app) }
    }
    return out.joined(separator: "\n") + "\n"
  }

  private func summary(_ report: ParityReport) -> String {
    let failures = ParityVerdict.failures(report)
    guard !failures.isEmpty else { return "✅ **All compared platforms are at parity.**" }
    let list = failures.map { failure in
      "\(Self.escape(failure.app)) \(Self.escape(failure.group)): "
        + failure.metrics.map(\.title).joined(separator: ", ")
    }
    return "❌ **Not at parity** — " + list.joined(separator: "; ")
  }

  private func render(_ group: ParityGroup, of app: AppParity) -> [String] {
    var out = ["## \(Self.escape(app.app)) · \(Self.escape(group.dimension)) \(Self.escape(group.value))", ""]
    var about = "Profile \(Self.escape(app.profile)) v\(app.profileVersion)"
    if let reference = group.referencePlatform {
      about += " · reference **\(Self.escape(reference))** · "
      switch group.atParity {
      case true?: about += "✅ at parity"
      case false?: about += "❌ not at parity"
      case nil: about += "no comparable data"
      }
    } else {
      about += " · one platform, nothing to compare"
    }
    out += [about, ""]

    // The reference platform first, as in the text report.
    let ordered = group.platforms.sorted { lhs, _ in lhs.platform == group.referencePlatform }
    let others = group.referencePlatform == nil ? [] : ordered.filter { $0.platform != group.referencePlatform }
    var header =
      ["metric"]
      + ordered.map {
        $0.platform == group.referencePlatform ? "\(Self.escape($0.platform)) (ref)" : Self.escape($0.platform)
      }
    var alignment = [":--"] + ordered.map { _ in "--:" }
    for other in others {
      header += ["Δ \(Self.escape(other.platform))", "parity \(Self.escape(other.platform))"]
      alignment += ["--:", ":--"]
    }
    out.append(Self.row(header))
    out.append(Self.row(alignment))
    let blanks = Array(repeating: "", count: others.count * 2)
    out.append(Self.row(["sessions"] + ordered.map { "\($0.sessions)" } + blanks))
    out.append(
      Self.row(
        ["done / cancelled / incomplete"] + ordered.map { "\($0.completed)/\($0.cancelled)/\($0.incomplete)" } + blanks)
    )

    for metric in ParityMetric.allCases {
      var cells = [metric.isRate ? metric.title : "\(metric.title) p50 (\(metric.unit))"]
      for platform in ordered {
        cells.append(
          metric.isRate
            ? Formatting.percent(platform.rate(metric)) : Formatting.number(platform.distribution(metric)?.p50))
      }
      for other in others {
        let comparison = group.comparisons.first { $0.metric == metric && $0.platform == other.platform }
        cells += [Formatting.signed(comparison?.difference), verdict(comparison)]
      }
      out.append(Self.row(cells))
      if !metric.isRate {
        out.append(
          Self.row(
            ["\(metric.title) p90 / p95"]
              + ordered.map {
                let d = $0.distribution(metric)
                return "\(Formatting.number(d?.p90)) / \(Formatting.number(d?.p95))"
              } + blanks))
      }
    }
    return out
  }

  private func verdict(_ comparison: MetricComparison?) -> String {
    guard let comparison, let atParity = comparison.atParity else { return "–" }
    return (atParity ? "✅ " : "❌ ") + Formatting.tolerance(comparison.metric, comparison.tolerance)
  }

  private static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }

  /// Names come from event logs: backslash-escape what Markdown or a table would act on, and
  /// drop line breaks, which would end the table row.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&", "#", "!", "(", ")", "{", "}":
        out.append("\\")
        out.append(character)
      case "\n", "\r", "\r\n", "\t":
        out.append(" ")
      default:
        out.append(character)
      }
    }
    return out
  }
}
