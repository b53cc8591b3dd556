/// Colour for terminal output: on only when asked (a TTY without `NO_COLOR`).
package struct TextStyle: Sendable {
  package var colored: Bool

  package init(colored: Bool) {
    self.colored = colored
  }

  package static let plain = TextStyle(colored: false)

  package func good(_ text: String) -> String { paint(text, "32") }
  package func bad(_ text: String) -> String { paint(text, "31;1") }
  package func dim(_ text: String) -> String { paint(text, "2") }
  package func bold(_ text: String) -> String { paint(text, "1") }

  private func paint(_ text: String, _ code: String) -> String {
    colored ? Self.sequence(code) + text + Self.sequence(Self.reset) : text
  }

  private static let reset = "0"
  private static let codes = ["32", "31;1", "2", "1", reset]
  private static func sequence(_ code: String) -> String { "\u{1B}[\(code)m" }
  /// Every sequence `paint` writes, and only those.
  private static let sequences = codes.map(sequence)

  /// `text` cut into the colour sequences this type adds and the text between them. Any other
  /// escape sequence is text (it came with data) and is measured and escaped as such.
  static func spans(_ text: String) -> [(text: Substring, isStyle: Bool)] {
    var spans: [(text: Substring, isStyle: Bool)] = []
    var rest = text[...]
    while let escape = rest.firstIndex(of: "\u{1B}") {
      let tail = rest[escape...]
      guard let sequence = sequences.first(where: { tail.hasPrefix($0) }) else {
        spans.append((rest[...escape], false))
        rest = rest[rest.index(after: escape)...]
        continue
      }
      if escape > rest.startIndex { spans.append((rest[..<escape], false)) }
      let end = tail.index(escape, offsetBy: sequence.count)
      spans.append((tail[..<end], true))
      rest = tail[end...]
    }
    if !rest.isEmpty { spans.append((rest, false)) }
    return spans
  }
}
