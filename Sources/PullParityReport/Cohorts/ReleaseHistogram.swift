internal import PullParityCore

/// Where fingers lifted, against the arming point: a histogram per platform of the release
/// distances of pulls, with the arming point and the near-miss line (80 % of it) drawn, so a
/// team sees whether users give up just short of a threshold that is too far.
struct ReleaseHistogram {
  struct Row {
    var platform: String
    /// Finger distances at the release (the arming point's unit).
    var values: [Double]
  }

  let id: String
  let rows: [Row]
  /// The arming point in finger travel.
  let armingPoint: Double
  /// Where a cancelled pull counts as a near miss, in finger travel.
  let nearMissPoint: Double?
  let unit: String
  let palette: ChartPalette
  /// The axis runs from 0 to past the arming point and most releases (their 95th percentile),
  /// so the bins near the arming point are narrow enough to show a near miss; the last bin
  /// holds everything beyond. Computed once: it sorts every value, and as a computed property
  /// read per bar it took 37 % of an HTML report of 10M events.
  let axisEnd: Double

  init(id: String, rows: [Row], armingPoint: Double, nearMissPoint: Double?, unit: String, palette: ChartPalette) {
    (self.id, self.rows, self.armingPoint, self.nearMissPoint, self.unit, self.palette) =
      (id, rows, armingPoint, nearMissPoint, unit, palette)
    let all = rows.flatMap(\.values).filter(\.isFinite).sorted()
    let p95 = all.isEmpty ? 0 : all[Int(Double(all.count - 1) * 0.95)]
    axisEnd = max(1.5 * armingPoint, p95)
  }

  static let bins = 24
  private static let width = 360.0
  private static let plotStart = 60.0
  private static let plotEnd = 344.0
  private static let rowHeight = 46.0
  private static let barHeight = 36.0

  private var binWidth: Double { axisEnd / Double(Self.bins) }

  var hasValues: Bool { rows.contains { !$0.values.isEmpty } }

  /// Bars drawn, which the tests count.
  var markCount: Int { rows.reduce(0) { $0 + counts($1.values).count { $0 > 0 } } }

  func counts(_ values: [Double]) -> [Int] {
    var counts = Array(repeating: 0, count: Self.bins)
    let width = binWidth
    for value in values where value.isFinite {
      counts[min(Self.bins - 1, max(0, Int(value / width)))] += 1
    }
    return counts
  }

  private func x(_ distance: Double) -> Double {
    Self.plotStart + min(distance, axisEnd) / axisEnd * (Self.plotEnd - Self.plotStart)
  }

  func render() -> String {
    var body: [String] = []
    var y = 4.0
    for row in rows where !row.values.isEmpty {
      body += bars(row, top: y)
      y += Self.rowHeight
    }
    body += markers(height: y)
    body.append(SVG.text("0", x: Self.plotStart, y: y + 12, anchor: "middle", cssClass: "value"))
    body.append(
      SVG.text(
        "\(NumberText.oneDecimalOrDash(axisEnd)) \(unit)", x: Self.plotEnd, y: y + 12, anchor: "end",
        cssClass: "value"))
    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: y + 18,
      label: "release distances per platform against the arming point", body: body)
  }

  /// One platform's bars, each as tall as its share of the platform's busiest bin.
  private func bars(_ row: Row, top: Double) -> [String] {
    let counts = counts(row.values)
    let busiest = Double(max(counts.max() ?? 1, 1))
    let color = palette.cssClass(row.platform)
    var out = [
      SVG.text(
        row.platform, x: Self.plotStart - 6, y: top + Self.barHeight / 2 + 4, anchor: "end", cssClass: "pname \(color)")
    ]
    let slot = (Self.plotEnd - Self.plotStart) / Double(Self.bins)
    for (bin, count) in counts.enumerated() where count > 0 {
      let height = Double(count) / busiest * Self.barHeight
      let low = Double(bin) * binWidth
      let range =
        bin == Self.bins - 1
        ? "≥ \(NumberText.oneDecimalOrDash(low))"
        : "\(NumberText.oneDecimalOrDash(low))–\(NumberText.oneDecimalOrDash(low + binWidth))"
      out.append(
        SVG.rect(
          x: Self.plotStart + Double(bin) * slot + 0.5, y: top + Self.barHeight - height, width: slot - 1,
          height: height, cssClass: "mark bar \(color)",
          title: "\(row.platform): \(count) released at \(range) \(unit)"))
    }
    return out
  }

  private func markers(height: Double) -> [String] {
    var out = [
      SVG.line(
        x1: x(armingPoint), y1: 0, x2: x(armingPoint), y2: height, cssClass: "threshold",
        title: "arms at \(NumberText.oneDecimalOrDash(armingPoint)) \(unit)")
    ]
    if let nearMissPoint {
      out.append(
        SVG.line(
          x1: x(nearMissPoint), y1: 0, x2: x(nearMissPoint), y2: height, cssClass: "threshold near",
          title: "near miss from \(NumberText.oneDecimalOrDash(nearMissPoint)) \(unit)"))
    }
    return out
  }
}
