internal import PullParityCore

/// One release compared with the version before it, as `pullparity compare` judged it: a row per
/// figure both versions have, the previous version's value (hollow dot) joined to the newest's
/// (filled dot), with the verdict beside. A figure has one axis on the whole page, from 0 to past
/// its largest value in any release drawn (`Axes`), so that a dumbbell's length is the size of
/// the change: with an axis per row around its two values, a 2 ms change was drawn as long as a
/// 640 ms regression.
struct VersionChart {
  var id: String
  var comparison: CohortComparison
  var axes: Axes

  /// Every value each figure takes in the releases drawn on one page, by figure.
  struct Axes {
    private var values: [String: [Double]] = [:]

    init(_ comparisons: [CohortComparison]) {
      for delta in comparisons.flatMap(\.deltas) {
        values[delta.figure.key, default: []] +=
          [delta.baseline.value, delta.candidate.value, delta.target].compactMap { $0 }
      }
    }

    /// A rate's axis from 0 to the ceiling of its largest value; a p50's from 0 (or below, for
    /// a figure that can be negative) to past its largest value and its target.
    func scale(_ delta: CohortDelta, from start: Double, to end: Double) -> ChartScale {
      let all = values[delta.figure.key] ?? []
      if delta.baseline.rate != nil {
        return ChartScale(covering: [0, ChartScale.rateCeiling(all.max() ?? 0)], from: start, to: end)
      }
      return ChartScale(covering: all, from: start, to: end, tickCount: 4, includeZero: true)
    }
  }

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
    let scale = axes.scale(delta, from: Self.plotStart + 4, to: Self.plotEnd - 4)
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

  private func value(_ measure: CohortMeasure, _ delta: CohortDelta) -> String {
    if let rate = measure.rate { return NumberText.percent(rate) }
    return "\(NumberText.oneDecimalOrDash(measure.value)) \(delta.unit)"
  }
}
