import Foundation
import PullParityIngest
import PullParityStore

/// One ingest of the spool's closed files into the database, then each file moved aside.
///
/// A file moves to the hidden `.ingested` folder only after the ingest committed. A crash
/// between the two leaves it to be ingested again: the run ledger and event-id dedup make that
/// second pass store nothing new.
struct SpoolIngest {
  let directory: SpoolDirectory
  let plan: ScheduledIngest

  /// Returns the ingest's summary (its `digests` say whether the report digests were brought up
  /// to date, for the scheduler to log), nil when there was nothing to ingest.
  func run() throws -> IngestSummary? {
    let files = try directory.closedFiles()
    guard !files.isEmpty else { return nil }
    let database = try PullParityDatabase(path: plan.databasePath, lockTimeout: plan.lockTimeout)
    let inputs = files.map { InputFile(name: $0, isGzip: false) }
    let summary = try Ingestor(database: database, options: plan.options).run(inputs)
    // A file that could not be read stays, with the others, for the next round (which skips
    // what this one stored).
    if summary.inputErrors.isEmpty { try moveAside(files) }
    return summary
  }

  private func moveAside(_ files: [String]) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: directory.ingestedFolder, withIntermediateDirectories: true)
    for file in files {
      let name = (file as NSString).lastPathComponent
      // rename(2) replaces a copy already there: the same file, ingested again after a crash.
      guard rename(file, directory.ingestedFolder + "/" + name) == 0 else { throw SpoolError("rename", file) }
    }
    try directory.syncEntries()
  }
}
