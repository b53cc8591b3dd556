/// Left-aligned first column, right-aligned others, padded to the widest cell. Widths leave out
/// only the colour codes `TextStyle` added, so coloured cells still line up; every other
/// control character in a cell is text from the logs, and is escaped before it is measured.
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
    return rows.map { $0.map(Self.escaped) }.map { row in
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

  /// The columns `text` takes on a terminal once it went through `escaped`.
  static func visibleWidth(_ text: String) -> Int {
    TextStyle.spans(text).reduce(0) { width, span in
      span.isStyle ? width : width + TerminalText.escaped(String(span.text)).unicodeScalars.count
    }
  }

  /// Text between the style's own colour codes escaped (a no-op on text escaped already).
  static func escaped(_ cell: String) -> String {
    TextStyle.spans(cell).map { $0.isStyle ? String($0.text) : TerminalText.escaped(String($0.text)) }.joined()
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
