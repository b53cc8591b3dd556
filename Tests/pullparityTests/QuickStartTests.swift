import Foundation
import PullParityTestSupport
import Testing

/// The README's quick start installs what CI installs: the packages of its `apt-get install`
/// lines and the requirement files of its `pip install` line are those of `.ci/run`, and it
/// updates the package lists first, as `.ci/run` does.
@Suite struct QuickStartTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOf: RepositoryPaths.root.appendingPathComponent(path), encoding: .utf8)
  }

  /// The commands of `text`, a line continued with `\` joined to the next.
  static func commands(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }

  /// The words after `install` of every command that starts with `command` (up to a redirection
  /// or `&&`), options left out.
  static func installed(by command: String, in text: String) -> Set<String> {
    var names: Set<String> = []
    for line in commands(text) where line.hasPrefix(command + " ") {
      let words = line.split(separator: " ").map(String.init)
      for word in words.drop(while: { $0 != "install" }).dropFirst() {
        if word == "&&" || word.hasPrefix(">") { break }
        if !word.hasPrefix("-") { names.insert(word) }
      }
    }
    return names
  }

  /// The README's first screen: from `## Quick start` to the next section.
  static func quickStart() throws -> String {
    let readme = try text("README.md")
    let section = try #require(readme.components(separatedBy: "## Quick start").dropFirst().first)
    return section.components(separatedBy: "\n## ").first ?? section
  }

  @Test func theQuickStartInstallsWhatCIInstalls() throws {
    let quickStart = try Self.quickStart()
    let ci = try Self.text(".ci/run")
    let packages = Self.installed(by: "apt-get install", in: quickStart)
    #expect(packages.contains("libsqlite3-dev") && packages.contains("chromium"), "\(packages)")
    #expect(packages == Self.installed(by: "apt-get install", in: ci))
    // `pip install -r A -r B`: the `-r` options' files, whichever the lines they are on.
    let requirements = { (text: String) -> Set<String> in
      Set(
        Self.commands(text).filter { $0.hasPrefix("python3 -m pip install") }.flatMap { line in
          line.matches(of: /-r ([^ ]+)/).map { String($0.output.1) }
        })
    }
    #expect(requirements(quickStart).count == 3)
    #expect(requirements(quickStart) == requirements(ci))
  }

  /// A literal reader updates the package lists, installs, and only then builds.
  @Test func theQuickStartInstallsBeforeItRuns() throws {
    let lines = Self.commands(try Self.quickStart()).filter { !$0.isEmpty && !$0.hasPrefix("```") }
    let update = try #require(lines.firstIndex(of: "apt-get update"))
    let install = try #require(lines.firstIndex { $0.hasPrefix("apt-get install -y lib") })
    let run = try #require(lines.firstIndex { $0.hasPrefix("swift run pullparity ingest sample-events --report") })
    let tests = try #require(lines.firstIndex(of: "scripts/test.sh"))
    #expect(update < install && install < run && run < tests)
    #expect(!lines.contains { $0.hasPrefix("sudo ") }, "a root container has no sudo")
  }
}
