import PullParityCore

/// One session on a time axis: a tick per event (pull samples short and unlabelled), the span the
/// indicator was visible, where the minimum hold ended, and the violations beneath.
struct TimelineChart {
  var id: String
  var timeline: SessionTimeline
  /// The profile's minimum visible time; no line when 0 or unknown.
  var minHoldMs: Double?

  private static let width = 640.0
  private static let plotStart = 14.0
  private static let plotEnd = 626.0
  private static let rowHeight = 13.0
  private static let maxLabelRows = 6
  private static let laneHeight = 24.0
  /// Frequent, repetitive events: labelling each would bury the rest.
  private static let minorEvents: Set<String> = ["pull_move", "reveal"]

  var markCount: Int { timeline.marks.count + timeline.violations.count }

  /// A label to place; `row` is assigned by `stack`.
  private struct Placed {
    var text: String
    var x: Double
    var anchor: String
    var cssClass: String
    var row: Int?
  }

  func render() -> String {
    let shown = timeline.marks.first { $0.label == "indicator_shown" }?.offsetMs
    let hidden = timeline.marks.last { $0.label == "indicator_hidden" }?.offsetMs
    let holdEnd = shown.flatMap { shown in minHoldMs.flatMap { $0 > 0 ? shown + $0 : nil } }
    let offsets = timeline.marks.map(\.offsetMs) + timeline.violations.map(\.offsetMs) + (holdEnd.map { [$0] } ?? [])
    let scale = ChartScale(covering: offsets, from: Self.plotStart, to: Self.plotEnd, tickCount: 6, includeZero: true)

    var eventLabels = timeline.marks.filter { !Self.minorEvents.contains($0.label) }.map {
      Self.placed($0.label, at: scale.position($0.offsetMs), cssClass: "event-label")
    }
    if let holdEnd {
      eventLabels.append(
        Self.placed(
          "min hold \(NumberText.format(minHoldMs ?? 0)) ms", at: scale.position(holdEnd), cssClass: "threshold-label"))
    }
    let eventRows = Self.stack(&eventLabels)
    var violationLabels = timeline.violations.map {
      Self.placed($0.label, at: scale.position($0.offsetMs) + 7, cssClass: "violation-label")
    }
    let violationRows = Self.stack(&violationLabels)

    let laneTop = 6 + Double(eventRows) * Self.rowHeight + 6
    let laneBottom = laneTop + Self.laneHeight
    let violationTop = laneBottom + 8
    let axisY = violationTop + 6 + Double(max(violationRows, 1)) * Self.rowHeight + 4
    var body: [String] = []

    for tick in scale.ticks {
      let x = scale.position(tick)
      body.append(SVG.line(x1: x, y1: laneTop, x2: x, y2: axisY, cssClass: "grid"))
      body.append(SVG.text(NumberText.format(tick), x: x, y: axisY + 14, anchor: "middle", cssClass: "tick"))
    }
    body.append(SVG.text("ms", x: Self.plotEnd, y: axisY + 26, anchor: "end", cssClass: "tick"))
    body.append(SVG.line(x1: Self.plotStart, y1: axisY, x2: Self.plotEnd, y2: axisY, cssClass: "axis"))

    if let shown, let hidden, hidden >= shown {
      body.append(
        SVG.rect(
          x: scale.position(shown), y: laneTop, width: scale.position(hidden) - scale.position(shown),
          height: Self.laneHeight, cssClass: "span",
          title: "indicator visible \(Formatting.oneDecimal(hidden - shown)) ms"))
    }
    if let holdEnd {
      let x = scale.position(holdEnd)
      body.append(SVG.line(x1: x, y1: laneTop - 4, x2: x, y2: axisY, cssClass: "threshold"))
    }

    // Leaders first, so every label is drawn over them.
    for label in eventLabels {
      guard let row = label.row else { continue }
      let y = laneTop - 6 - Double(row) * Self.rowHeight
      body.append(SVG.line(x1: label.x, y1: y + 2, x2: label.x, y2: laneTop, cssClass: "leader"))
    }
    for label in eventLabels {
      guard let row = label.row else { continue }
      let y = laneTop - 6 - Double(row) * Self.rowHeight
      body.append(
        SVG.text(
          label.text, x: label.x + (label.anchor == "end" ? 2 : -2), y: y, anchor: label.anchor,
          cssClass: label.cssClass + " halo"))
    }
    for mark in timeline.marks {
      let x = scale.position(mark.offsetMs)
      let minor = Self.minorEvents.contains(mark.label)
      body.append(
        SVG.line(
          x1: x, y1: minor ? laneTop + 12 : laneTop, x2: x, y2: laneBottom,
          cssClass: minor ? "mark event minor" : "mark event",
          title: "+\(Formatting.oneDecimal(mark.offsetMs)) ms \(mark.label) \(mark.detail)"))
    }

    let diamondY = violationTop + 6
    for (mark, label) in zip(timeline.violations, violationLabels) {
      let x = scale.position(mark.offsetMs)
      body.append(
        "<path class=\"mark violation\" d=\"M\(SVG.number(x)) \(SVG.number(diamondY - 6))l6 6l-6 6l-6 -6z\">"
          + SVG.title("+\(Formatting.oneDecimal(mark.offsetMs)) ms \(mark.label): \(mark.detail)") + "</path>")
      guard let row = label.row else { continue }
      body.append(
        SVG.text(
          label.text, x: label.x, y: diamondY + 4 + Double(row) * Self.rowHeight, anchor: label.anchor,
          cssClass: label.cssClass + " halo"))
    }

    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: axisY + 30,
      label: "timeline of session \(timeline.sessionID)", body: body)
  }

  /// Starts at `x`, or ends there when it would run off the right edge.
  private static func placed(_ text: String, at x: Double, cssClass: String) -> Placed {
    let anchor = x + SVG.estimatedWidth(text) > plotEnd ? "end" : "start"
    return Placed(text: text, x: x, anchor: anchor, cssClass: cssClass)
  }

  /// Greedy rows: each label goes on the first row where it clears the previous one; labels
  /// that fit nowhere are dropped (their tick keeps its tooltip). Returns the rows used.
  private static func stack(_ labels: inout [Placed]) -> Int {
    func from(_ label: Placed) -> Double {
      label.anchor == "end" ? label.x - SVG.estimatedWidth(label.text) : label.x
    }
    var rowEnds: [Double] = []
    // Left to right, whatever order the labels are listed in, so every row fills in order.
    for index in labels.indices.sorted(by: { from(labels[$0]) < from(labels[$1]) }) {
      let width = SVG.estimatedWidth(labels[index].text)
      let start = from(labels[index])
      if let row = rowEnds.firstIndex(where: { $0 + 6 <= start }) {
        labels[index].row = row
        rowEnds[row] = start + width
      } else if rowEnds.count < maxLabelRows {
        labels[index].row = rowEnds.count
        rowEnds.append(start + width)
      }
    }
    return rowEnds.count
  }
}
