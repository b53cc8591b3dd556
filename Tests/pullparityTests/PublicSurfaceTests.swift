import Foundation
import PullParityTestSupport
import Testing

/// What a client app links is listed where its author looks: every `public` type and function
/// of Core in docs/architecture.md's "Public surface", of the Recorder in `PullParityRecorder`'s doc
/// comment. A new public declaration that is not listed fails here.
@Suite struct PublicSurfaceTests {
  @Test(arguments: [
    ("PullParityCore", "docs/architecture.md", "- **Public surface.**"),
    ("PullParityRecorder", "Sources/PullParityRecorder/PullParityRecorder.swift", "/// Records an app's"),
  ])
  func everyPublicDeclarationIsListed(module: String, document: String, listStart: String) throws {
    let text = try String(contentsOf: RepositoryPaths.root.appendingPathComponent(document), encoding: .utf8)
    let start = try #require(text.range(of: listStart), "\(document) has no list starting \(listStart)")
    // The list runs to the next bullet of the document or, in a doc comment, to the declaration.
    let rest = text[start.upperBound...]
    let end = rest.range(of: "\n- **")?.lowerBound ?? rest.range(of: "\npublic ")?.lowerBound ?? rest.endIndex
    let list = rest[..<end]
    // The type named after its module (`PullParityRecorder`) is the one the list documents.
    let names = try Self.publicNames(in: module).subtracting([module])
    #expect(names.count > 10, "\(module): \(names)")
    for name in names {
      #expect(
        list.contains("`\(name)`") || list.contains("``\(name)"),
        "\(module).\(name) is public but not listed in \(document)")
    }
  }

  /// Names of the top-level `public` types and functions of a module's sources.
  static func publicNames(in module: String) throws -> Set<String> {
    let folder = RepositoryPaths.root.appendingPathComponent("Sources/\(module)")
    let pattern = try Regex(#"^public (?:final )?(?:struct|enum|protocol|class|actor|func) ([A-Za-z0-9_]+)"#)
      .anchorsMatchLineEndings()
    var names = Set<String>()
    // Files sit in folders by concern inside the module: every level is read.
    for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
      let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for match in source.matches(of: pattern) {
        if let name = match.output[1].substring { names.insert(String(name)) }
      }
    }
    return names
  }
}
