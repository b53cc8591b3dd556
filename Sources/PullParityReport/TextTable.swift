/// Left-aligned first column, right-aligned others, padded to the widest cell. Widths are
/// measured on the text without colour codes so coloured cells still line up.
struct TextTable {
  var rows: [[String]] = []
  /// Columns after the first that hold words rather than numbers, aligned left.
  var leftAligned: Set<Int> = []

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
        } else if leftAligned.contains(i) {
          line += "  " + cell + pad
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
  /// Greedy word wrap at `width` visible columns; lines after the first start with `indent`.
  func wrapped(width: Int, indent: String) -> String {
    var lines: [String] = []
    var current = ""
    for word in split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
      let candidate = current.isEmpty ? word : current + " " + word
      if TextTable.visibleWidth(candidate) > width, !current.trimmingCharacters(in: " ").isEmpty {
        lines.append(current)
        current = indent + word
      } else {
        current = candidate
      }
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }

  private func trimmingCharacters(in set: Character) -> String { filter { $0 != set } }

  func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
