import Foundation
import PullParityTestSupport
import Testing

/// The repository documents itself: every relative link in its Markdown resolves to a file in
/// the repository, and no document sends a reader to a file outside it.
@Suite struct DocumentationLinkTests {
  static let documents = [
    "README.md", "docs/events.md", "docs/report-formats.md", "docs/distributed-formats.md", "schema/README.md",
  ]

  @Test(arguments: documents)
  func relativeLinksResolveInsideTheRepository(document: String) throws {
    let url = RepositoryPaths.root.appendingPathComponent(document)
    let text = try String(contentsOf: url, encoding: .utf8)
    let base = url.deletingLastPathComponent()
    for target in Self.linkTargets(in: text) where !target.contains("://") && !target.hasPrefix("#") {
      let path = String(target.split(separator: "#", maxSplits: 1)[0])
      let resolved = base.appendingPathComponent(path).standardizedFileURL.path
      #expect(resolved.hasPrefix(RepositoryPaths.root.standardizedFileURL.path), "\(document) → \(target)")
      #expect(FileManager.default.fileExists(atPath: resolved), "\(document) → \(target)")
    }
    #expect(!text.contains("EVENTS.md") && !text.contains("../shared"), "\(document) points outside the repository")
  }

  /// `[text](target)` link targets.
  static func linkTargets(in text: String) -> [String] {
    var targets: [String] = []
    var rest = Substring(text)
    while let open = rest.range(of: "](") {
      rest = rest[open.upperBound...]
      guard let close = rest.firstIndex(of: ")") else { break }
      targets.append(String(rest[..<close]))
      rest = rest[close...]
    }
    return targets
  }
}
