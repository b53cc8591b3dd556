internal import PullParityCore

/// Box plots of one metric, a row per platform: box p25–p75, a bar at p50, whiskers p5–p95, and
/// the sessions themselves as dots beneath, with the profile's threshold as a dashed line.
struct DistributionChart {
  struct Row {
    var platform: String
    var values: [Double]
  }

  struct Threshold {
    var value: Double
    var label: String
  }

  /// More dots than this draws evenly spaced ranks instead of every session: the shape stays,
  /// the file stays small.
  static let maxDots = 200

  var id: String
  var metric: ParityMetric
  var rows: [Row]
  var threshold: Threshold?
  var palette: ChartPalette
  /// The profile's distance unit, for distance metrics.
  var distanceUnit = "pt"

  private static let width = 360.0
  private static let top = 26.0
  private static let rowHeight = 50.0
  private static let plotStart = 16.0
  private static let plotEnd = 344.0

  /// Boxes for rows with values, plus the dots drawn.
  var markCount: Int {
    rows.reduce(0) { $0 + ($1.values.isEmpty ? 0 : 1 + Self.dotIndices($1.values.count).count) }
  }

  var hasValues: Bool { rows.contains { !$0.values.isEmpty } }

  func render() -> String {
    let all = rows.flatMap(\.values) + (threshold.map { [$0.value] } ?? [])
    let scale = ChartScale(covering: all, from: Self.plotStart, to: Self.plotEnd)
    let bottom = Self.top + Double(rows.count) * Self.rowHeight
    var body: [String] = []

    for tick in scale.ticks {
      let x = scale.position(tick)
      body.append(SVG.line(x1: x, y1: Self.top - 4, x2: x, y2: bottom, cssClass: "grid"))
      body.append(SVG.tick(NumberText.format(tick), x: x, y: bottom + 14, chartWidth: Self.width))
    }

    // The threshold under the rows, so their labels' halos keep the text legible across it.
    if let threshold {
      let x = scale.position(threshold.value)
      body.append(SVG.line(x1: x, y1: Self.top - 8, x2: x, y2: bottom, cssClass: "threshold", title: threshold.label))
      let anchor = x < 70 ? "start" : x > Self.width - 70 ? "end" : "middle"
      body.append(
        SVG.text(
          threshold.label, x: x + (anchor == "start" ? -2 : anchor == "end" ? 2 : 0), y: 11, anchor: anchor,
          cssClass: "threshold-label halo"))
    }

    for (index, row) in rows.enumerated() {
      body.append(render(row, top: Self.top + Double(index) * Self.rowHeight, scale: scale))
    }

    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: bottom + 22,
      label: "\(metric.title) per platform, \(metric.unit(distance: distanceUnit))", body: body)
  }

  private func render(_ row: Row, top: Double, scale: ChartScale) -> String {
    let color = palette.cssClass(row.platform)
    let sorted = row.values.sorted()
    guard let p50 = Percentile.of(sorted: sorted, 0.5) else {
      return heading(row, "no values", top: top, color: color).joined(separator: "\n")
    }
    func p(_ q: Double) -> Double { Percentile.of(sorted: sorted, q) ?? p50 }
    let label =
      "n \(sorted.count) · p50 \(NumberText.oneDecimalOrDash(p50)) · p90 \(NumberText.oneDecimalOrDash(p(0.9))) · p95 \(NumberText.oneDecimalOrDash(p(0.95)))"
    let boxTop = top + 17
    let quartiles = (p5: p(0.05), p25: p(0.25), p50: p50, p75: p(0.75), p95: p(0.95))
    let parts =
      heading(row, label, top: top, color: color)
      + [box(row, quartiles, n: sorted.count, top: boxTop, scale: scale, color: color)]
      + dots(sorted, top: boxTop + Self.boxHeight + 5, scale: scale, color: color)
    return parts.joined(separator: "\n")
  }

  private static let boxHeight = 16.0

  /// The platform's name, then `text` (its figures) in grey.
  private func heading(_ row: Row, _ text: String, top: Double, color: String) -> [String] {
    [
      SVG.text(row.platform, x: Self.plotStart, y: top + 12, cssClass: "pname halo \(color)"),
      SVG.text(
        text, x: Self.plotStart + SVG.estimatedWidth(row.platform, bold: true) + 8, y: top + 12, cssClass: "muted halo"),
    ]
  }

  /// Whiskers p5–p95, the box p25–p75 and the median bar, with the figures as its tooltip.
  private func box(
    _ row: Row, _ q: (p5: Double, p25: Double, p50: Double, p75: Double, p95: Double), n: Int, top boxTop: Double,
    scale: ChartScale, color: String
  ) -> String {
    let center = boxTop + Self.boxHeight / 2
    let summary =
      "\(row.platform): n \(n), p5 \(NumberText.oneDecimalOrDash(q.p5)), p25 \(NumberText.oneDecimalOrDash(q.p25)), "
      + "p50 \(NumberText.oneDecimalOrDash(q.p50)), p75 \(NumberText.oneDecimalOrDash(q.p75)), p95 \(NumberText.oneDecimalOrDash(q.p95)) \(metric.unit(distance: distanceUnit))"
    var box = "<g class=\"mark box \(color)\">" + SVG.title(summary)
    box += SVG.line(x1: scale.position(q.p5), y1: center, x2: scale.position(q.p95), y2: center, cssClass: "whisker")
    for end in [q.p5, q.p95] {
      box += SVG.line(
        x1: scale.position(end), y1: center - 5, x2: scale.position(end), y2: center + 5, cssClass: "whisker")
    }
    box += SVG.rect(
      x: scale.position(q.p25), y: boxTop, width: scale.position(q.p75) - scale.position(q.p25), height: Self.boxHeight,
      cssClass: "iqr")
    box += SVG.line(
      x1: scale.position(q.p50), y1: boxTop - 2, x2: scale.position(q.p50), y2: boxTop + Self.boxHeight + 2,
      cssClass: "median")
    return box + "</g>"
  }

  /// Dots in a strip under the box, spread vertically by rank so ties stay visible.
  private func dots(_ sorted: [Double], top dotsTop: Double, scale: ChartScale, color: String) -> [String] {
    Self.dotIndices(sorted.count).enumerated().map { order, index in
      let y = dotsTop + Double((order * 7) % 5) * 2
      return
        "<circle class=\"mark dot \(color)\" cx=\"\(SVG.number(scale.position(sorted[index])))\" cy=\"\(SVG.number(y))\" r=\"2\"/>"
    }
  }

  /// Which ranks get a dot: all of them, or `maxDots` evenly spaced ones.
  static func dotIndices(_ count: Int) -> [Int] {
    guard count > maxDots else { return Array(0..<count) }
    return (0..<maxDots).map { Int((Double($0) * Double(count - 1) / Double(maxDots - 1)).rounded()) }
  }
}
