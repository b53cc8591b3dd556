/// Left-aligned first column, right-aligned others, padded to the widest cell. Widths are
/// measured on the text without colour codes so coloured cells still line up.
struct TextTable {
  var rows: [[String]] = []

  mutating func add(_ cells: [String]) { rows.append(cells) }

  func render(indent: String = "") -> String {
    let columns = rows.map(\.count).max() ?? 0
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], Self.visibleWidth(cell)) }
    }
    return rows.map { row in
      var line = indent
      for (i, cell) in row.enumerated() {
        let pad = String(repeating: " ", count: widths[i] - Self.visibleWidth(cell))
        if i == 0 {
          line += cell + pad
        } else {
          line += "  " + pad + cell
        }
      }
      return line.trimmingTrailingSpaces()
    }.joined(separator: "\n")
  }

  static func visibleWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if scalar == "m" { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        width += 1
      }
    }
    return width
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
