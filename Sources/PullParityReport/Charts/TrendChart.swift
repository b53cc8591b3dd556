internal import PullParityCore

/// A rule's trend: a line per platform through each day's rate, on a rate axis scaled to the
/// largest day's rate. Days without a session the rule judges break the line (a gap, never a
/// zero); a day between two gaps is a lone dot.
struct TrendChart {
  var id: String
  var trend: RuleTrend
  var palette: ChartPalette

  private static let width = 360.0
  private static let plotStart = 40.0
  private static let plotEnd = 346.0
  private static let top = 22.0
  private static let plotHeight = 110.0

  private var dayCount: Int { trend.series.map(\.days.count).max() ?? 0 }
  private var ceiling: Double {
    ChartScale.rateCeiling(trend.series.flatMap(\.days).compactMap { $0?.percent }.max() ?? 0)
  }

  /// A dot per day with a rate, per platform.
  var markCount: Int { trend.series.reduce(0) { $0 + $1.days.count { $0 != nil } } }

  func render() -> String {
    let bottom = Self.top + Self.plotHeight
    let body = legend() + axes(bottom: bottom) + trend.series.flatMap { lines($0, bottom: bottom) }
    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: bottom + 30,
      label: "\(trend.rule.title) per day and platform, \(trend.app)", body: body)
  }

  private func x(_ day: Int) -> Double {
    guard dayCount > 1 else { return (Self.plotStart + Self.plotEnd) / 2 }
    return Self.plotStart + Double(day) / Double(dayCount - 1) * (Self.plotEnd - Self.plotStart)
  }

  private func y(_ percent: Double, bottom: Double) -> Double {
    bottom - percent / ceiling * Self.plotHeight
  }

  /// Platform names in their colours, left to right.
  private func legend() -> [String] {
    var x = Self.plotStart
    return trend.series.map { series in
      defer { x += SVG.estimatedWidth(series.platform, bold: true) + 14 }
      return SVG.text(series.platform, x: x, y: 12, cssClass: "pname \(palette.cssClass(series.platform))")
    }
  }

  /// Rate ticks at 0, half and the ceiling; the first, middle and last day.
  private func axes(bottom: Double) -> [String] {
    var body: [String] = []
    for percent in [0, ceiling / 2, ceiling] {
      let at = y(percent, bottom: bottom)
      body.append(SVG.line(x1: Self.plotStart, y1: at, x2: Self.plotEnd, y2: at, cssClass: "grid"))
      body.append(
        SVG.text("\(NumberText.format(percent)) %", x: Self.plotStart - 4, y: at + 4, anchor: "end", cssClass: "tick"))
    }
    let shown = Array(Set([0, (dayCount - 1) / 2, dayCount - 1])).filter { $0 >= 0 }.sorted()
    for (position, day) in shown.enumerated() {
      let anchor =
        shown.count == 1 ? "middle" : position == 0 ? "start" : position == shown.count - 1 ? "end" : "middle"
      body.append(SVG.text(date(day), x: x(day), y: bottom + 16, anchor: anchor, cssClass: "tick"))
    }
    return body
  }

  private func date(_ day: Int) -> String {
    String(ReportContext.rfc3339(Double(trend.firstDay + day) * RuleTrend.dayMs).prefix(10))
  }

  /// Segments through consecutive days with a rate, and a dot on each.
  private func lines(_ series: RuleTrend.Series, bottom: Double) -> [String] {
    let color = palette.cssClass(series.platform)
    var body: [String] = []
    var run: [(x: Double, y: Double)] = []
    // One step past the last day closes the last segment.
    for day in 0...series.days.count {
      guard day < series.days.count, let rate = series.days[day], let percent = rate.percent else {
        if run.count > 1 { body.append(SVG.polyline(run, cssClass: "trend \(color)")) }
        run = []
        continue
      }
      let point = (x: x(day), y: y(percent, bottom: bottom))
      run.append(point)
      body.append(
        SVG.circle(
          x: point.x, y: point.y, radius: 3, cssClass: "mark trend-dot \(color)",
          title: "\(series.platform) \(date(day)): \(NumberText.percent(rate))"))
    }
    return body
  }
}
