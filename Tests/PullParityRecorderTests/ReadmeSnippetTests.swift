import Foundation
import PullParityTestSupport
import Testing

/// The README's "iOS and other Swift apps" shows the refresh sequence the scripted screen runs;
/// this keeps the two the same code.
@Suite struct ReadmeSnippetTests {
  @Test func theReadmesRefreshSequenceIsTheOneTheTestsRun() throws {
    let snippet = try Self.snippet(of: "ScriptedScreen.swift", from: "recorder.refreshStart(trigger: trigger)")
    #expect(snippet.contains("hold(atLeast: behaviour.minimumHold, clock: clock)"))
    let shown = try Self.readme().contains("```swift\n" + snippet + "\n```")
    #expect(shown, "README.md lacks the scripted screen's refresh sequence:\n\(snippet)")
  }

  /// "Libraries that only give onRefresh" shows what `CallbackOnlyScreen` records.
  @Test func theReadmesOnRefreshRecipeIsTheOneTheTestsRun() throws {
    let snippet = try Self.snippet(
      of: "CallbackOnlyScreen.swift", from: "recorder.refreshStart(gestureObserved: false)")
    let shown = try Self.readme().contains("```swift\n" + snippet + "\n```")
    #expect(shown, "README.md lacks the callback-only screen's refresh:\n\(snippet)")
  }

  static func readme() throws -> String {
    try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The lines of a test file from the one containing `first` to the indicator's hide, as the
  /// README shows them (without the method body's indentation).
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
