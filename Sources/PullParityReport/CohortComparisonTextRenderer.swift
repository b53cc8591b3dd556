import Foundation
import PullParityStore

/// `pullparity compare` for a terminal: who is compared, one row per metric, and the verdict.
public struct CohortComparisonTextRenderer {
  public var style: TextStyle

  public init(style: TextStyle = .plain) {
    self.style = style
  }

  public func render(_ comparison: CohortComparison) -> String {
    var out: [String] = []
    let apps = comparison.apps.isEmpty ? "no sessions" : comparison.apps.joined(separator: ", ")
    let trigger = comparison.trigger.map { "\($0.rawValue) refreshes" } ?? "all triggers"
    out.append(style.bold("Cohort comparison") + " — \(apps), \(trigger)")
    // Left-aligned by hand: TextTable right-aligns all but the first column.
    let width = max(comparison.baseline.selector.count, comparison.candidate.selector.count)
    func pad(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
    out.append("  baseline   \(pad(comparison.baseline.selector))  \(comparison.baselineSessions) sessions")
    out.append("  candidate  \(pad(comparison.candidate.selector))  \(comparison.candidateSessions) sessions")
    let common = Self.describe(Self.common(comparison.baseline.filter, comparison.candidate.filter))
    if !common.isEmpty { out.append("  both       \(common)") }
    out.append("")

    var table = TextTable()
    table.add(["metric", "baseline", "candidate", "delta", "tolerance", "verdict"])
    for delta in comparison.deltas {
      let metric = delta.metric
      // "client arm" keeps the table narrow, as in `report`.
      let title = metric == .clientArmDistance ? "client arm" : metric.title
      table.add([
        metric.isRate ? title : "\(title) (\(metric.unit))", Self.measure(delta.baseline, metric),
        Self.measure(delta.candidate, metric), Formatting.signed(delta.delta),
        Formatting.tolerance(metric, delta.tolerance), verdict(delta.verdict),
      ])
    }
    out.append(table.render())
    out.append("")
    let regressions = comparison.regressions.map(\.title)
    if regressions.isEmpty {
      out.append(style.good("No regressions") + ": the candidate is within tolerance of the baseline, or better.")
    } else {
      out.append(style.bad("Regressed") + ": " + regressions.joined(separator: ", "))
    }
    // Said every time, because a distance that "regressed" by getting smaller surprises.
    out.append(
      style.dim(
        """
        Distances and times: p50 (n = sessions with a value); rates: % of sessions judged.
        Worse if higher: flash, premature hide, label violations, arm mismatch; if lower:
        hold compliant; either way: distances and times (the goal is the spec, not less).
        """))
    return out.joined(separator: "\n") + "\n"
  }

  private func verdict(_ verdict: CohortVerdict) -> String {
    switch verdict {
    case .regression: style.bad("REGRESSION")
    case .improvement: style.good("improvement")
    case .unchanged: "unchanged"
    case .noData: style.dim("n/a")
    }
  }

  /// `34.5 (n=118)` for a distribution, `45.3% (58/128)` for a rate, `–` without data.
  static func measure(_ measure: CohortMeasure, _ metric: ParityMetric) -> String {
    if metric.isRate {
      return Formatting.percent(Rate(numerator: measure.numerator ?? 0, denominator: measure.n))
    }
    guard let value = measure.value else { return "–" }
    return "\(Formatting.number(value)) (n=\(measure.n))"
  }

  /// The conditions both cohorts share: the common filters, or a selector value repeated on
  /// both sides.
  static func common(_ a: SessionFilter, _ b: SessionFilter) -> SessionFilter {
    func same<T: Equatable>(_ x: T?, _ y: T?) -> T? { x == y ? x : nil }
    return SessionFilter(
      app: same(a.app, b.app), platform: same(a.platform, b.platform), sinceMs: same(a.sinceMs, b.sinceMs),
      untilMs: same(a.untilMs, b.untilMs), appVersion: same(a.appVersion, b.appVersion),
      screen: same(a.screen, b.screen))
  }

  /// `app=padel platform=ios since=2026-11-16T00:00:00Z`, empty when nothing filters.
  static func describe(_ filter: SessionFilter) -> String {
    var parts: [String] = []
    if let app = filter.app { parts.append("app=\(app)") }
    if let platform = filter.platform { parts.append("platform=\(platform)") }
    if let version = filter.appVersion { parts.append("app_version=\(version)") }
    if let screen = filter.screen { parts.append("screen=\(screen)") }
    if let since = filter.sinceMs { parts.append("since=\(time(since))") }
    if let until = filter.untilMs { parts.append("until=\(time(until))") }
    return parts.joined(separator: " ")
  }

  private static func time(_ ms: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var text = formatter.string(from: Date(timeIntervalSince1970: ms / 1000))
    // Whole seconds read better without ".000".
    if text.hasSuffix(".000Z") { text = String(text.dropLast(5)) + "Z" }
    return text
  }
}
