import Testing

@testable import PullParityReport

/// TextTable leaves out of its widths only the colour codes TextStyle added; an escape
/// sequence that came with a cell's text is escaped and measured like any other text.
@Suite struct TextTableTests {
  static let style = TextStyle(colored: true)

  /// The lines with TextStyle's own codes removed, as a terminal lays them out.
  static func laidOut(_ text: String) -> [String] {
    text.split(separator: "\n").map { line in
      TextStyle.spans(String(line)).filter { !$0.isStyle }.map { String($0.text) }.joined()
    }
  }

  @Test(arguments: ["\u{1B}[31mred", "\u{1B}]0;title\u{07}", "bell\u{07}", "\u{1B}[2J\u{1B}[33m", "\u{9B}31m"])
  func dataEscapesAreTextAndColumnsLineUp(hostile: String) {
    var table = TextTable()
    table.add(["metric", "pwa", "ios"])
    table.add([hostile, Self.style.bad("FAIL") + " 1.0", Self.style.good("ok")])
    table.add(["arm", "2.0", Self.style.dim("few n=3")])
    let rendered = table.render()
    let lines = Self.laidOut(rendered)
    #expect(Set(lines.map(\.count)).count == 1, "\(lines)")
    #expect(lines[1].hasPrefix(TerminalText.escaped(hostile)))
    let controls = lines.joined().unicodeScalars.filter { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    #expect(controls.isEmpty, "only TextStyle's own codes reach the terminal")
    #expect(rendered.contains("\u{1B}[31;1mFAIL\u{1B}[0m"), "the style's colour is kept")
  }

  @Test func escapingIsIdempotentSoRenderersMayEscapeEarly() {
    let once = TerminalText.escaped("\u{1B}[31mx\u{07}")
    #expect(once == "\\u{1b}[31mx\\u{7}")
    #expect(TerminalText.escaped(once) == once)
    #expect(TextTable.visibleWidth(once) == once.count)
  }
}
