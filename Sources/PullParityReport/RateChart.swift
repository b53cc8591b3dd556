/// Violation rates as horizontal bars on a fixed 0–100 % axis, a block per metric and a bar per
/// platform, so a platform's problem stands out against the others at a glance.
struct RateChart {
  static let metrics: [ParityMetric] = [.flashRate, .prematureHideRate, .labelViolationRate, .armMismatchRate]

  var id: String
  var platforms: [PlatformSummary]
  /// Metrics that failed parity in the group: their heading says so.
  var failing: Set<ParityMetric>
  var palette: ChartPalette

  private static let width = 360.0
  private static let barStart = 60.0
  private static let barEnd = 244.0
  private static let headerHeight = 20.0
  private static let barRow = 17.0

  /// Metrics some platform has a denominator for; the others would be empty blocks.
  var shownMetrics: [ParityMetric] {
    Self.metrics.filter { metric in platforms.contains { ($0.rate(metric)?.denominator ?? 0) > 0 } }
  }

  var markCount: Int {
    shownMetrics.reduce(0) { count, metric in
      count + platforms.count { ($0.rate(metric)?.denominator ?? 0) > 0 }
    }
  }

  func render() -> String {
    var body: [String] = []
    var y = 0.0
    for metric in shownMetrics {
      let failed = failing.contains(metric)
      body.append(
        SVG.text(
          metric.title + (failed ? "  ✗ not at parity" : ""), x: 4, y: y + 14,
          cssClass: failed ? "heading bad" : "heading"))
      y += Self.headerHeight
      for platform in platforms {
        let color = palette.cssClass(platform.platform)
        body.append(
          SVG.text(platform.platform, x: Self.barStart - 6, y: y + 11, anchor: "end", cssClass: "pname \(color)"))
        body.append(
          SVG.rect(x: Self.barStart, y: y + 2, width: Self.barEnd - Self.barStart, height: 11, cssClass: "track"))
        let rate = platform.rate(metric)
        if let rate, let value = rate.value {
          // A 0 % bar still gets a sliver, so "measured, none" differs from "no data".
          let width = max(value * (Self.barEnd - Self.barStart), 1.5)
          body.append(
            SVG.rect(
              x: Self.barStart, y: y + 2, width: width, height: 11, cssClass: "mark bar \(color)",
              title: "\(platform.platform) \(metric.title): \(Formatting.percent(rate))"))
        }
        body.append(SVG.text(Formatting.percent(rate), x: Self.barEnd + 6, y: y + 11, cssClass: "value"))
        y += Self.barRow
      }
      y += 4
    }
    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: max(y, 1), label: "violation rates per platform",
      body: body)
  }
}
