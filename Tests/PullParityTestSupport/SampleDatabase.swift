import Foundation

/// `sample-events/` ingested once per test process, for the many tests that only read it.
package enum SampleDatabase {
  /// The database file; created on first use, removed when the test process exits.
  package static let path: String = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pullparity-samples-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("samples.sqlite").path
    let run = try? CommandRun.pullparity(["ingest", "--quiet", "--db", path, RepositoryPaths.sampleEvents.path])
    precondition(run?.exitCode == 0, "ingesting sample-events failed: \(run?.stderr ?? "could not run pullparity")")
    atexit {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("pullparity-samples-\(ProcessInfo.processInfo.processIdentifier)")
      try? FileManager.default.removeItem(at: directory)
    }
    return path
  }()
}
