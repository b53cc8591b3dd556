internal import PullParityCore
internal import PullParityStore

/// `pullparity compare` for a terminal: who is compared, one row per metric, and the verdict.
package struct CohortComparisonTextRenderer {
  package var style: TextStyle

  package init(style: TextStyle = .plain) {
    self.style = style
  }

  package func render(_ comparison: CohortComparison) -> String {
    let e = TerminalText.escaped
    var out: [String] = []
    let apps = comparison.apps.isEmpty ? "no sessions" : comparison.apps.map(e).joined(separator: ", ")
    let trigger = comparison.trigger.map { "\($0.rawValue) refreshes" } ?? "all triggers"
    out.append(style.bold("Cohort comparison") + " — \(apps), \(trigger)")
    // Left-aligned by hand: TextTable right-aligns all but the first column.
    let selectors = [comparison.baseline.selector, comparison.candidate.selector].map(e)
    let width = selectors.map(\.count).max() ?? 0
    func pad(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
    out.append("  baseline   \(pad(selectors[0]))  \(comparison.baselineSessions) sessions")
    out.append("  candidate  \(pad(selectors[1]))  \(comparison.candidateSessions) sessions")
    let common = Self.common(comparison.baseline.filter, comparison.candidate.filter)
    if !common.isEmpty { out.append("  both       \(e(ReportHeader.filter(common)))") }
    for (label, value) in ReportHeader.lines(comparison.context) where label != "Filter" {
      out.append("\(label): \(e(value))".wrapped(width: 80, indent: "  "))
    }
    out.append("")
    out.append(table(comparison))
    out.append("")
    out.append(conclusion(comparison))
    // Said every time, because a distance that "regressed" by getting smaller surprises.
    out.append(
      style.dim(
        """
        Distances and times: p50 (n = sessions with a value); rates: % of sessions
        judged. Each change has its interval at the confidence the run judged it at
        (false alarms held to 5% for the whole comparison); it regresses when the
        interval lies beyond what is allowed on the worse side: a rule's budget for a
        rate's rise, the tolerance for a distance or a time (0 unless given). Worse if
        higher: flash, premature hide, label violations, arm mismatch, near misses and
        the rules; if lower: hold compliant; either way: times, and distances (the goal
        is the spec, not less).
        \(armingNote(comparison))Verdicts need \(comparison.context.policy.minSessions) sessions on each side.
        """))
    return out.joined(separator: "\n") + "\n"
  }

  /// Where the arm distances were judged against, when the profile says.
  private func armingNote(_ comparison: CohortComparison) -> String {
    guard let about = comparison.armTarget else { return "" }
    let targets = comparison.deltas.filter { $0.target != nil }
      .map { "\(NumberText.oneDecimalOrDash($0.target)) \($0.unit)" }
    let shown = Array(Set(targets)).sorted().joined(separator: ", ")
    return "Arm distances: nearer \(TerminalText.escaped(about)) (\(shown)) is better.\n"
  }

  private func table(_ comparison: CohortComparison) -> String {
    var table = TextTable()
    // The tolerances are in the header: a column of them would pass 80 columns.
    table.add(["metric", "baseline", "candidate", "delta", "verdict"])
    for delta in comparison.deltas {
      // "client arm" keeps the table narrow, as in `report`.
      let title = delta.figure == .metric(.clientArmDistance) ? "client arm" : delta.figure.title
      table.add([
        delta.figure.isRate ? title : "\(title) (\(delta.unit))", Self.measure(delta.baseline),
        Self.measure(delta.candidate), NumberText.signed(delta.delta), verdict(delta.verdict),
      ])
      if let interval = delta.interval, delta.delta != nil {
        table.add(["  CI \(NumberText.interval(interval))", "", "", "", NumberText.level(interval)])
      }
    }
    return table.render()
  }

  private func conclusion(_ comparison: CohortComparison) -> String {
    switch comparison.outcome {
    case .passed:
      return style.good("No regressions") + ": the candidate is within tolerance of the baseline, or better."
    case .failed:
      return style.bad("Regressed") + ": " + comparison.regressions.map(\.title).joined(separator: ", ")
    case .insufficientData:
      return style.bad("No verdict for some figures") + ": too few sessions or none, and --require-data was given."
    case .nothingJudged:
      return style.bad("No verdict")
        + ": no figure had \(comparison.context.policy.minSessions) sessions on both sides (see --min-sessions)."
    }
  }

  private func verdict(_ verdict: CohortVerdict) -> String {
    switch verdict {
    case .regression: style.bad("REGRESSION")
    case .improvement: style.good("improvement")
    case .unchanged: "unchanged"
    case .insufficientData: style.dim("too few")
    case .noData: style.dim("n/a")
    }
  }

  /// `34.5 (n=118)` for a distribution, `45.3% (58/128)` for a rate, `–` without data.
  static func measure(_ measure: CohortMeasure) -> String {
    if let rate = measure.rate { return NumberText.percent(rate) }
    guard let value = measure.value else { return "–" }
    return "\(NumberText.oneDecimalOrDash(value)) (n=\(measure.n))"
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
}
