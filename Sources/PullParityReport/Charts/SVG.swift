internal import PullParityCore

/// Builders for the inline SVG of the HTML report. Every piece of text goes through
/// `HTMLEscaping`; coordinates are rounded to 0.1 unit, finer than a pixel at any width.
enum SVG {
  static func number(_ value: Double) -> String {
    let text = NumberText.oneDecimal(value)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// The root element: scales to its container's width (`viewBox`, no fixed size), tagged with
  /// what it draws and how many marks, which the tests count.
  static func root(chart: String, marks: Int, width: Double, height: Double, label: String, body: [String]) -> String {
    "<svg class=\"chart-svg\" data-chart=\"\(HTMLEscaping.escape(chart))\" data-marks=\"\(marks)\" "
      + "viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\" aria-label=\"\(HTMLEscaping.escape(label))\" "
      + "preserveAspectRatio=\"xMinYMin meet\">\n" + body.joined(separator: "\n") + "\n</svg>"
  }

  /// The width of `text` at the charts' 11 px in user units, erring wide: digits as the widest
  /// digit of a system sans-serif font (0.6 em), `%` as 0.95 em, anything else as a digit, a
  /// capital or a wide letter (0.8 em) where it is one. Charts size themselves by it so that a
  /// label never runs past their edge.
  static func textWidth(_ text: String) -> Double {
    text.reduce(0) { width, character in
      let em: Double =
        character == "%" ? 0.95 : character.isUppercase || "mwMW".contains(character) ? 0.8 : 0.6
      return width + em * 11
    }
  }

  /// An axis label centred under `x`, unless that would run past the chart's edge (0 or
  /// `chartWidth`): then it ends at (or starts from) the edge. A history's last tick, `35000`,
  /// ran past a timeline's.
  static func tick(_ content: String, x: Double, y: Double, chartWidth: Double) -> String {
    let half = textWidth(content) / 2
    if x + half > chartWidth { return text(content, x: chartWidth - 1, y: y, anchor: "end", cssClass: "tick") }
    if x - half < 0 { return text(content, x: 1, y: y, cssClass: "tick") }
    return text(content, x: x, y: y, anchor: "middle", cssClass: "tick")
  }

  static func text(
    _ content: String, x: Double, y: Double, anchor: String = "start", cssClass: String? = nil
  ) -> String {
    let classAttribute = cssClass.map { " class=\"\($0)\"" } ?? ""
    let anchorAttribute = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
    return
      "<text x=\"\(number(x))\" y=\"\(number(y))\"\(anchorAttribute)\(classAttribute)>\(HTMLEscaping.escape(content))</text>"
  }

  static func line(x1: Double, y1: Double, x2: Double, y2: Double, cssClass: String, title: String? = nil) -> String {
    let open =
      "<line class=\"\(cssClass)\" x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\""
    guard let title else { return open + "/>" }
    return open + ">" + self.title(title) + "</line>"
  }

  /// `attributes` are added as given: the caller escapes any text in them.
  static func rect(
    x: Double, y: Double, width: Double, height: Double, cssClass: String, title: String? = nil,
    attributes: String = ""
  ) -> String {
    let open =
      "<rect class=\"\(cssClass)\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(max(width, 0)))\" height=\"\(number(max(height, 0)))\"\(attributes)"
    guard let title else { return open + "/>" }
    return open + ">" + self.title(title) + "</rect>"
  }

  static func circle(x: Double, y: Double, radius: Double, cssClass: String, title: String) -> String {
    "<circle class=\"\(cssClass)\" cx=\"\(number(x))\" cy=\"\(number(y))\" r=\"\(number(radius))\">"
      + self.title(title) + "</circle>"
  }

  /// Straight segments through `points`, one path.
  static func polyline(_ points: [(x: Double, y: Double)], cssClass: String) -> String {
    let list = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
    return "<polyline class=\"\(cssClass)\" points=\"\(list)\"/>"
  }

  /// A tooltip: browsers show it on hover, screen readers read it.
  static func title(_ text: String) -> String { "<title>\(HTMLEscaping.escape(text))</title>" }

  /// Rough width of `text` at 11-unit system sans: enough to keep labels from overlapping.
  static func estimatedWidth(_ text: String, fontSize: Double = 11, bold: Bool = false) -> Double {
    Double(text.count) * fontSize * (bold ? 0.72 : 0.58)
  }
}
