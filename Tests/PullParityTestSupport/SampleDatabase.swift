import Foundation
package import GRDB

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

  /// The shared sample file, opened read-only and patient: tests read it at the same time, and
  /// a busy moment of one (a checkpoint as a command closes) must not fail another.
  package static func readOnlyQueue() throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(30)
    return try DatabaseQueue(path: path, configuration: configuration)
  }

  /// A consistent snapshot of the sample file at `copy`.
  package static func copy(to copy: String) throws {
    try readOnlyQueue().inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
  }
}
