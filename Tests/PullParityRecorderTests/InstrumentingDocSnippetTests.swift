import Foundation
import PullParityTestSupport
import Testing

/// docs/instrumenting.md's "iOS and other Swift apps" shows the refresh sequence the scripted
/// screen runs; this keeps the two the same code.
@Suite struct InstrumentingDocSnippetTests {
  @Test func theDocsRefreshSequenceIsTheOneTheTestsRun() throws {
    let snippet = try Self.snippet(of: "ScriptedScreen.swift", from: "recorder.refreshStart(trigger: trigger)")
    #expect(snippet.contains("hold(atLeast: behaviour.minimumHold, clock: clock)"))
    let shown = try Self.document().contains("```swift\n" + snippet + "\n```")
    #expect(shown, "docs/instrumenting.md lacks the scripted screen's refresh sequence:\n\(snippet)")
  }

  /// "Libraries that only give onRefresh" shows what `CallbackOnlyScreen` records.
  @Test func theDocsOnRefreshRecipeIsTheOneTheTestsRun() throws {
    let snippet = try Self.snippet(
      of: "CallbackOnlyScreen.swift", from: "recorder.refreshStart(gestureObserved: false)")
    let shown = try Self.document().contains("```swift\n" + snippet + "\n```")
    #expect(shown, "docs/instrumenting.md lacks the callback-only screen's refresh:\n\(snippet)")
  }

  static func document() throws -> String {
    try String(contentsOf: RepositoryPaths.root.appendingPathComponent("docs/instrumenting.md"), encoding: .utf8)
  }

  /// The lines of a test file from the one containing `first` to the indicator's hide, as the
  /// document shows them (without the method body's indentation).
  static func snippet(of file: String, from first: String) throws -> String {
    let script = try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/PullParityRecorderTests/\(file)"),
      encoding: .utf8)
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.contains(first) })
    let end = try #require(lines[start...].firstIndex { $0.contains("recorder.indicatorHidden()") })
    return lines[start...end].map { $0.dropFirst(4) }.joined(separator: "\n")
  }
}
