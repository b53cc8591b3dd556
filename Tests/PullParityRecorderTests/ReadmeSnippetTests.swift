import Foundation
import PullParityTestSupport
import Testing

/// The README's "iOS and other Swift apps" shows the refresh sequence the scripted screen runs;
/// this keeps the two the same code.
@Suite struct ReadmeSnippetTests {
  @Test func theReadmesRefreshSequenceIsTheOneTheTestsRun() throws {
    let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let script = try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/PullParityRecorderTests/ScriptedScreen.swift"),
      encoding: .utf8)
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.contains("recorder.refreshStart(trigger: trigger)") })
    let end = try #require(lines[start...].firstIndex { $0.contains("recorder.indicatorHidden()") })
    let snippet = lines[start...end].map { $0.dropFirst(4) }.joined(separator: "\n")
    #expect(snippet.contains("hold(atLeast: behaviour.minimumHold, clock: clock)"))
    let shown = readme.contains("```swift\n" + snippet + "\n```")
    #expect(shown, "README.md lacks the scripted screen's refresh sequence:\n\(snippet)")
  }
}
