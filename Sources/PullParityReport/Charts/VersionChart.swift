internal import PullParityCore

/// One release compared with the version before it, as `pullparity compare` judged it: a row per
/// figure both versions have, the previous version's value (hollow dot) joined to the newest's
/// (filled dot), with the verdict beside. Each row has its own axis (a rate's from 0 to its
/// `rateCeiling`, a p50's around both values), since the figures' units and sizes differ.
struct VersionChart {
  var id: String
  var comparison: CohortComparison

  private static let width = 360.0
  private static let plotStart = 8.0
  private static let plotEnd = 352.0
  private static let rowHeight = 46.0

  /// The figures drawn: those with a value on both sides.
  var rows: [CohortDelta] { comparison.deltas.filter { $0.baseline.value != nil && $0.candidate.value != nil } }

  /// Two dots per row.
  var markCount: Int { rows.count * 2 }

  func render() -> String {
    let body = rows.enumerated().flatMap { row($0.element, top: Double($0.offset) * Self.rowHeight) }
    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: max(Double(rows.count) * Self.rowHeight, 1),
      label: "figures of the previous and the newest version", body: body)
  }

  /// The verdict in `compare`'s words and the class that colours it.
  static func verdict(_ verdict: CohortVerdict) -> (text: String, cssClass: String) {
    switch verdict {
    case .regression: ("✗ regression", "bad")
    case .improvement: ("✓ improvement", "good")
    case .unchanged: ("unchanged", "muted")
    case .insufficientData: ("too few sessions", "muted")
    case .noData: ("no data", "muted")
    }
  }

  private func row(_ delta: CohortDelta, top: Double) -> [String] {
    guard let before = delta.baseline.value, let after = delta.candidate.value else { return [] }
    let scale = axis(delta, before, after)
    let (text, cssClass) = Self.verdict(delta.verdict)
    let line = top + 36
    let from = scale.position(before)
    let to = scale.position(after)
    return [
      SVG.text(delta.figure.title, x: Self.plotStart, y: top + 11, cssClass: "heading"),
      SVG.text(text, x: Self.plotEnd, y: top + 11, anchor: "end", cssClass: "verdict-label \(cssClass)"),
      SVG.text(
        "\(value(delta.baseline, delta)) → \(value(delta.candidate, delta))", x: Self.plotStart, y: top + 25,
        cssClass: "value"),
      SVG.line(x1: Self.plotStart, y1: line, x2: Self.plotEnd, y2: line, cssClass: "track-line"),
      SVG.line(x1: from, y1: line, x2: to, y2: line, cssClass: "dumbbell \(cssClass)"),
      SVG.circle(
        x: from, y: line, radius: 4, cssClass: "mark before",
        title: "\(comparison.baseline.selector): \(value(delta.baseline, delta))"),
      SVG.circle(
        x: to, y: line, radius: 4, cssClass: "mark after \(cssClass)",
        title: "\(comparison.candidate.selector): \(value(delta.candidate, delta))"),
    ]
  }

  /// A rate's axis from 0 to its ceiling; a p50's covering both values (and its target).
  private func axis(_ delta: CohortDelta, _ before: Double, _ after: Double) -> ChartScale {
    if delta.baseline.rate != nil {
      return ChartScale(
        covering: [0, ChartScale.rateCeiling(max(before, after))], from: Self.plotStart + 4, to: Self.plotEnd - 4)
    }
    return ChartScale(
      covering: [before, after] + (delta.target.map { [$0] } ?? []), from: Self.plotStart + 4, to: Self.plotEnd - 4,
      tickCount: 4)
  }

  private func value(_ measure: CohortMeasure, _ delta: CohortDelta) -> String {
    if let rate = measure.rate { return NumberText.percent(rate) }
    return "\(NumberText.oneDecimalOrDash(measure.value)) \(delta.unit)"
  }
}
