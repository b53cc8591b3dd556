import Foundation
internal import GRDB
internal import PullParityIngest
internal import PullParityStore

/// One load of a daily dataset's runs (`pullparity_spark.py --append`): the directory read and
/// the dataset runs the file holds once it is stored.
package struct DatasetStep: Equatable, Sendable {
  package var directory: String
  package var dataset: String
  package var runs: ClosedRange<Int>

  /// The directory must be what the step was planned from: the dataset through its last run,
  /// or the part of the one run it loads (a folder copied over in the meantime is not).
  func check(_ summary: RunSummaryFile, in directory: String) throws {
    let whole = summary.dataset.map { $0.id == dataset && $0.runs == runs.upperBound && runs.lowerBound == 1 }
    let part = summary.partOf.map { $0.dataset == dataset && runs == $0.run...$0.run }
    guard whole ?? part ?? false else {
      throw PipeFormatError(
        input: directory + "/summary.json", line: 1,
        message: "expected run \(runs.upperBound) of dataset \(dataset); the summary is another's")
    }
  }
}

extension RunLoader {
  /// `load DIR`: what DIR holds that the file does not. A run's output is loaded whole, every
  /// time (its events stored before are duplicates). A daily dataset, whose runs each write their
  /// own part (`DIR/runs/NNNN`), is loaded whole into a file that holds none of its runs, and
  /// otherwise as its later runs' parts, in order, each a run of the ledger: a day's load reads
  /// that day, and counts its lines once. Nothing is loaded when the file holds every run; a
  /// dataset with fewer runs than the file holds (an older copy) is refused. `--leave-events`
  /// loads the dataset whole each time, replacing what it stored (`LeftEvents`).
  package func loadNew(directory: String, leavingEvents: Bool = false) throws -> [(String, Outcome)] {
    guard !leavingEvents, let steps = try plan(directory, summary: try Self.summary(in: directory)) else {
      return [(directory, try load(directory: directory, leavingEvents: leavingEvents))]
    }
    return try steps.map { ($0.directory, try load(directory: $0.directory, step: $0)) }
  }

  /// The steps that bring the file up to the dataset's last run; nil for a run of no dataset.
  package func plan(_ directory: String, summary: RunSummaryFile) throws -> [DatasetStep]? {
    if let dataset = summary.dataset {
      let held = try database.read { try DatasetRuns.lastLoaded(dataset.id, $0) }
      guard let held else { return [DatasetStep(directory: directory, dataset: dataset.id, runs: 1...dataset.runs)] }
      guard held <= dataset.runs else {
        throw IngestError.cannotOpen(
          path: directory,
          reason: "\(database.path) holds run \(held) of this dataset, and \(directory) only \(dataset.runs) runs: "
            + "an older copy of the dataset (copy it again after its last run)")
      }
      return try (held + 1..<dataset.runs + 1).map { run in
        let part = String(format: "%@/runs/%04d", directory, run)
        try Self.requirePart(part, run: run)
        return DatasetStep(directory: part, dataset: dataset.id, runs: run...run)
      }
    }
    guard let part = summary.partOf else { return nil }
    let held = try database.read { try DatasetRuns.lastLoaded(part.dataset, $0) } ?? 0
    guard part.run > held else { return [] }
    guard part.run == held + 1 else {
      throw IngestError.cannotOpen(
        path: directory,
        reason: "run \(part.run) of its dataset, and \(database.path) holds "
          + (held == 0 ? "none of its runs" : "its runs up to \(held)")
          + ": a dataset's runs load in order; load the dataset's folder, which loads the runs the file lacks")
    }
    return [DatasetStep(directory: directory, dataset: part.dataset, runs: part.run...part.run)]
  }

  private static func requirePart(_ part: String, run: Int) throws {
    guard FileManager.default.fileExists(atPath: part + "/summary.json") else {
      throw IngestError.cannotOpen(
        path: part,
        reason: "no part of run \(run) of the dataset (the job writes it with --json-for-load): "
          + "load the whole dataset into a new file")
    }
  }
}
