internal import PullParityCore

/// Violation rates as horizontal bars, a block per metric or failing rule and a bar per
/// platform, so a platform's problem stands out against the others at a glance. Each block has
/// its own axis, scaled to its largest rate (`ChartScale.rateCeiling`) and labelled: a 2 % rate
/// next to 0 % fills most of its track instead of a pixel of a 0–100 % one.
struct RateChart {
  static let metrics: [ParityMetric] = [.flashRate, .prematureHideRate, .labelViolationRate, .armMismatchRate]

  /// One block: a metric or a rule, and each platform's rate of it.
  struct Block {
    var title: String
    /// The rule's name for a rule block (tests find a failing rule's bars by it).
    var rule: String?
    var failed: Bool
    var rates: [(platform: String, rate: Rate?)]
  }

  var id: String
  var blocks: [Block]
  var palette: ChartPalette

  private static let width = 360.0
  private static let barStart = 60.0
  private static let barEnd = 244.0
  private static let headerHeight = 20.0
  private static let barRow = 17.0
  /// A rate above 0 never draws narrower than this (about 7 px on a phone), however small next
  /// to its axis: "a few" must not look like "none". Its figure is printed beside it.
  static let minimumBar = 7.0

  /// The group's rate metrics that some platform has a denominator for, then every rule some
  /// platform fails, app-specific rules (cache order, error shown…) included.
  init(id: String, platforms: [PlatformSummary], failing: Set<ParityMetric>, palette: ChartPalette) {
    self.id = id
    self.palette = palette
    let metricBlocks = Self.metrics.map { metric in
      Block(
        title: metric.title, rule: nil, failed: failing.contains(metric),
        rates: platforms.map { ($0.platform, $0.rate(metric)) })
    }.filter { $0.rates.contains { ($0.rate?.denominator ?? 0) > 0 } }
    let failedRules = ProfileRule.allCases.filter { rule in platforms.contains { $0.rule(rule)?.verdict == .fail } }
    let ruleBlocks = failedRules.map { rule in
      Block(
        title: "rule \(rule.title)", rule: rule.rawValue, failed: true,
        rates: platforms.map { ($0.platform, $0.rule(rule)?.rate) })
    }
    blocks = metricBlocks + ruleBlocks
  }

  var markCount: Int {
    blocks.reduce(0) { count, block in count + block.rates.count { $0.rate?.value != nil } }
  }

  /// Where a bar of `percent` ends on an axis ending at `ceiling` percent.
  static func barWidth(percent: Double, ceiling: Double) -> Double {
    let width = percent / ceiling * (barEnd - barStart)
    // 0 % still gets a sliver, so "measured, none" differs from "no data".
    return percent > 0 ? max(width, minimumBar) : max(width, 1.5)
  }

  func render() -> String {
    var body: [String] = []
    var y = 0.0
    for block in blocks {
      body += render(block, top: y)
      y += Self.headerHeight + Double(block.rates.count) * Self.barRow + 4
    }
    return SVG.root(
      chart: id, marks: markCount, width: width, height: max(y, 1), label: "violation rates per platform", body: body)
  }

  /// Wide enough for the longest rate printed beside its bar: a rate of a large history
  /// (`100.0% (75626/75626)`) ran past the chart's edge, where the next element covered it.
  /// The chart is scaled to the page's width, so a wider one is drawn a little smaller.
  var width: Double {
    let longest = blocks.flatMap(\.rates).map { SVG.textWidth(NumberText.percent($0.rate)) }.max() ?? 0
    return max(Self.width, Self.barEnd + 6 + longest + 4)
  }

  private func render(_ block: Block, top: Double) -> [String] {
    let ceiling = ChartScale.rateCeiling(block.rates.compactMap { $0.rate?.percent }.max() ?? 0)
    var body = [
      SVG.text(
        block.title + (block.failed ? "  ✗" : ""), x: 4, y: top + 14, cssClass: block.failed ? "heading bad" : "heading"
      ),
      SVG.text(
        "axis 0–\(NumberText.format(ceiling)) %", x: Self.barEnd, y: top + 14, anchor: "end", cssClass: "tick"),
    ]
    var y = top + Self.headerHeight
    for (platform, rate) in block.rates {
      body += bar(platform: platform, rate: rate, block: block, ceiling: ceiling, top: y)
      y += Self.barRow
    }
    return body
  }

  private func bar(platform: String, rate: Rate?, block: Block, ceiling: Double, top y: Double) -> [String] {
    let color = palette.cssClass(platform)
    var body = [
      SVG.text(platform, x: Self.barStart - 6, y: y + 11, anchor: "end", cssClass: "pname \(color)"),
      SVG.rect(x: Self.barStart, y: y + 2, width: Self.barEnd - Self.barStart, height: 11, cssClass: "track"),
    ]
    if let rate, let percent = rate.percent {
      let data =
        (block.rule.map { " data-rule=\"\(HTMLEscaping.escape($0))\"" } ?? "")
        + " data-platform=\"\(HTMLEscaping.escape(platform))\" data-percent=\"\(SVG.number(percent))\""
      body.append(
        SVG.rect(
          x: Self.barStart, y: y + 2, width: Self.barWidth(percent: percent, ceiling: ceiling), height: 11,
          cssClass: "mark bar \(color)", title: "\(platform) \(block.title): \(NumberText.percent(rate))",
          attributes: data))
    }
    body.append(SVG.text(NumberText.percent(rate), x: Self.barEnd + 6, y: y + 11, cssClass: "value"))
    return body
  }
}
