import Foundation
import PullParityTestSupport
import Testing

/// The repository documents itself: every relative link in its Markdown resolves to a file in
/// the repository (and a link to a heading, `file.md#heading` or `#heading`, to a heading of
/// that file), no document sends a reader to a file outside it, and the README, the front door,
/// links every document of `docs/`.
@Suite struct DocumentationLinkTests {
  /// The README, every Markdown file of `docs/`, and the other documents a reader is sent to.
  static let documents =
    ["README.md", "schema/README.md", "bench/README.md", "clients/android/README.md"] + docsFiles()

  static func docsFiles() -> [String] {
    let folder = RepositoryPaths.root.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
  }

  @Test func theDocumentsAreFound() {
    // The README's topics moved to docs/ (issue 30): a listing that found none would check nothing.
    for document in [
      "docs/events.md", "docs/report-formats.md", "docs/distributed-formats.md", "docs/verdicts.md",
      "docs/instrumenting.md", "docs/collector.md", "docs/profiles.md", "docs/dashboards.md",
      "docs/architecture.md", "docs/choices.md", "docs/at-scale.md", "docs/performance.md",
      "docs/upgrading.md", "docs/development.md",
    ] {
      #expect(Self.documents.contains(document), "\(document)")
    }
  }

  @Test(arguments: documents)
  func relativeLinksResolveInsideTheRepository(document: String) throws {
    let url = RepositoryPaths.root.appendingPathComponent(document)
    let text = try String(contentsOf: url, encoding: .utf8)
    let base = url.deletingLastPathComponent()
    for target in Self.linkTargets(in: text) where !target.contains("://") {
      let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      let path = parts[0]
      let resolved = path.isEmpty ? url.standardizedFileURL : base.appendingPathComponent(path).standardizedFileURL
      #expect(resolved.path.hasPrefix(RepositoryPaths.root.standardizedFileURL.path), "\(document) → \(target)")
      #expect(FileManager.default.fileExists(atPath: resolved.path), "\(document) → \(target)")
      // A heading named in a Markdown file must be one of its headings.
      guard parts.count == 2, resolved.pathExtension == "md",
        let linked = try? String(contentsOf: resolved, encoding: .utf8)
      else { continue }
      #expect(Self.anchors(in: linked).contains(parts[1]), "\(document) → \(target): no such heading")
    }
    #expect(!text.contains("EVENTS.md") && !text.contains("../shared"), "\(document) points outside the repository")
  }

  /// A newcomer finds every document from the README.
  @Test func theReadmeLinksEveryDocument() throws {
    let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let targets = Set(Self.linkTargets(in: readme).map { String($0.split(separator: "#")[0]) })
    for document in Self.docsFiles() {
      #expect(targets.contains(document), "README.md does not link \(document)")
    }
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

  /// The anchors GitHub gives a document's headings (outside code blocks): the heading's text
  /// in lower case, with spaces as `-` and every other character but letters, digits, `-` and
  /// `_` dropped; a repeated one gets `-1`, `-2`, ….
  static func anchors(in text: String) -> Set<String> {
    var seen: [String: Int] = [:]
    var anchors = Set<String>()
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      guard !inFence, let heading = line.wholeMatch(of: /#{1,6} (.*)/) else { continue }
      let slug = Self.slug(String(heading.1))
      let count = seen[slug, default: 0]
      seen[slug] = count + 1
      anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
    }
    return anchors
  }

  static func slug(_ heading: String) -> String {
    // A link in a heading counts by its text.
    let text = heading.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }
    var slug = ""
    for scalar in text.lowercased().unicodeScalars {
      if scalar == " " {
        slug.append("-")
      } else if scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
        || scalar.properties.numericType != nil
      {
        slug.unicodeScalars.append(scalar)
      }
    }
    return slug
  }

  @Test func anchorsAreGitHubs() {
    #expect(Self.slug("`report --format html`") == "report---format-html")
    #expect(Self.slug("Refused, and why") == "refused-and-why")
    #expect(Self.slug("Libraries that only give `onRefresh`") == "libraries-that-only-give-onrefresh")
    #expect(Self.anchors(in: "# A\n```\n# B\n```\n## A\n") == ["a", "a-1"])
  }
}
