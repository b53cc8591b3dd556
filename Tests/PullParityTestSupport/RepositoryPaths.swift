package import Foundation

/// Paths of the repository the tests run from.
package enum RepositoryPaths {
  /// The package root, found from this file's location.
  package static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  package static let sampleEvents = root.appendingPathComponent("sample-events")

  /// The generator's own ground truth for the sample logs.
  package static func expectedSample() throws -> JSONTree {
    try JSONTree(parsing: Data(contentsOf: sampleEvents.appendingPathComponent("EXPECTED.json")))
  }

  /// The `pullparity` the end-to-end tests run: `PULLPARITY_BIN` when set, as for the Python
  /// suites (scripts/test.sh points it at the deployable release build, which runs these tests
  /// on about half the CPU of the debug one), else the one built next to the test bundle.
  package static var executable: URL {
    if let path = ProcessInfo.processInfo.environment["PULLPARITY_BIN"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    let candidates = [
      Bundle.main.bundleURL.appendingPathComponent("pullparity"),
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("pullparity"),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pullparity"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
  }
}
