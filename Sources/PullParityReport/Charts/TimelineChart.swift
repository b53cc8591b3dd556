internal import PullParityCore

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

  /// Where things go: the time scale, the stacked labels and the lanes' heights.
  private struct Layout {
    var scale: ChartScale
    var shown: Double?
    var hidden: Double?
    var holdEnd: Double?
    var eventLabels: [Placed]
    var violationLabels: [Placed]
    var laneTop: Double
    var laneBottom: Double
    var violationTop: Double
    var axisY: Double
  }

  func render() -> String {
    let layout = self.layout()
    let body = axis(layout) + indicatorSpan(layout) + eventLabels(layout) + eventMarks(layout) + violations(layout)
    return SVG.root(
      chart: id, marks: markCount, width: Self.width, height: layout.axisY + 30,
      label: "timeline of session \(timeline.sessionID)", body: body)
  }

  private func layout() -> Layout {
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
    let violationTop = laneTop + Self.laneHeight + 8
    return Layout(
      scale: scale, shown: shown, hidden: hidden, holdEnd: holdEnd, eventLabels: eventLabels,
      violationLabels: violationLabels, laneTop: laneTop, laneBottom: laneTop + Self.laneHeight,
      violationTop: violationTop, axisY: violationTop + 6 + Double(max(violationRows, 1)) * Self.rowHeight + 4)
  }

  /// Grid lines, tick labels and the axis.
  private func axis(_ l: Layout) -> [String] {
    var body: [String] = []
    for tick in l.scale.ticks {
      let x = l.scale.position(tick)
      body.append(SVG.line(x1: x, y1: l.laneTop, x2: x, y2: l.axisY, cssClass: "grid"))
      body.append(SVG.tick(NumberText.format(tick), x: x, y: l.axisY + 14, chartWidth: Self.width))
    }
    body.append(SVG.text("ms", x: Self.plotEnd, y: l.axisY + 26, anchor: "end", cssClass: "tick"))
    body.append(SVG.line(x1: Self.plotStart, y1: l.axisY, x2: Self.plotEnd, y2: l.axisY, cssClass: "axis"))
    return body
  }

  /// The band the indicator was visible, and where the profile's minimum hold ends.
  private func indicatorSpan(_ l: Layout) -> [String] {
    var body: [String] = []
    if let shown = l.shown, let hidden = l.hidden, hidden >= shown {
      body.append(
        SVG.rect(
          x: l.scale.position(shown), y: l.laneTop, width: l.scale.position(hidden) - l.scale.position(shown),
          height: Self.laneHeight, cssClass: "span",
          title: "indicator visible \(NumberText.oneDecimal(hidden - shown)) ms"))
    }
    if let holdEnd = l.holdEnd {
      let x = l.scale.position(holdEnd)
      body.append(SVG.line(x1: x, y1: l.laneTop - 4, x2: x, y2: l.axisY, cssClass: "threshold"))
    }
    return body
  }

  /// Leaders first, so every label is drawn over them.
  private func eventLabels(_ l: Layout) -> [String] {
    let placed = l.eventLabels.compactMap { label in
      label.row.map { (label, l.laneTop - 6 - Double($0) * Self.rowHeight) }
    }
    return placed.map { label, y in SVG.line(x1: label.x, y1: y + 2, x2: label.x, y2: l.laneTop, cssClass: "leader") }
      + placed.map { label, y in
        SVG.text(
          label.text, x: label.x + (label.anchor == "end" ? 2 : -2), y: y, anchor: label.anchor,
          cssClass: label.cssClass + " halo")
      }
  }

  private func eventMarks(_ l: Layout) -> [String] {
    timeline.marks.map { mark in
      let x = l.scale.position(mark.offsetMs)
      let minor = Self.minorEvents.contains(mark.label)
      return SVG.line(
        x1: x, y1: minor ? l.laneTop + 12 : l.laneTop, x2: x, y2: l.laneBottom,
        cssClass: minor ? "mark event minor" : "mark event",
        title: "+\(NumberText.oneDecimal(mark.offsetMs)) ms \(mark.label) \(mark.detail)")
    }
  }

  /// A diamond per violation, with its label.
  private func violations(_ l: Layout) -> [String] {
    var body: [String] = []
    let diamondY = l.violationTop + 6
    for (mark, label) in zip(timeline.violations, l.violationLabels) {
      let x = l.scale.position(mark.offsetMs)
      body.append(
        "<path class=\"mark violation\" d=\"M\(SVG.number(x)) \(SVG.number(diamondY - 6))l6 6l-6 6l-6 -6z\">"
          + SVG.title("+\(NumberText.oneDecimal(mark.offsetMs)) ms \(mark.label): \(mark.detail)") + "</path>")
      guard let row = label.row else { continue }
      body.append(
        SVG.text(
          label.text, x: label.x, y: diamondY + 4 + Double(row) * Self.rowHeight, anchor: label.anchor,
          cssClass: label.cssClass + " halo"))
    }
    return body
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
