import Testing

@testable import PullParityReport

/// The figures under a session's trace are packed into lines of the text output's width,
/// never breaking a figure.
@Suite struct SessionTraceRendererTests {
  @Test(arguments: [
    (["a b", "c"], 80, ["a b · c"]),
    (["aaaa", "bbbb", "cccc"], 11, ["aaaa · bbbb", "cccc"]),
    (["aaaa", "bbbb", "cccc"], 10, ["aaaa", "bbbb", "cccc"]),
    (["a very long figure", "b"], 10, ["a very long figure", "b"]),
    ([], 80, []),
  ])
  func figuresArePackedWhole(items: [String], width: Int, lines: [String]) {
    #expect(SessionTraceRenderer.packed(items, width: width) == lines)
  }
}
