import Foundation
import PullParityDistributed
import PullParityStore
import PullParityTestSupport
import Testing

/// What `load` reads of a daily dataset (`--append`): the runs the file lacks, from their own
/// parts, in order; nothing when it holds them all; an older copy, a missing part or a part
/// out of order refused (docs/distributed-formats.md, "Daily runs"). The loads themselves run
/// on the Spark job's output in spark/tests/test_daily_runs.py.
@Suite struct DatasetLoadPlanTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    /// Loaded: `dataset` (its summary says 3 runs) or `dataset/runs/000N`.
    var directory: String
    /// Runs of the dataset the file holds already.
    var held: Int
    /// The parts the dataset folder has.
    var parts = [1, 2, 3]
    /// The steps planned: directory and runs; nil when refused.
    var steps: [(String, ClosedRange<Int>)]?
    var refusal = ""
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "a new file: the dataset whole", directory: "dataset", held: 0, steps: [("dataset", 1...3)]),
    Case(
      name: "the day after: the later parts", directory: "dataset", held: 1,
      steps: [("dataset/runs/0002", 2...2), ("dataset/runs/0003", 3...3)]),
    Case(name: "every run held: nothing", directory: "dataset", held: 3, steps: []),
    Case(
      name: "an older copy", directory: "dataset", held: 4, steps: nil,
      refusal: "holds run 4 of this dataset, and "),
    Case(
      name: "a part the job did not write", directory: "dataset", held: 1, parts: [1, 3], steps: nil,
      refusal: "no part of run 2 of the dataset (the job writes it with --json-for-load)"),
    Case(name: "the next part", directory: "dataset/runs/0002", held: 1, steps: [("dataset/runs/0002", 2...2)]),
    Case(name: "a part held already", directory: "dataset/runs/0001", held: 2, steps: []),
    Case(
      name: "a part out of order", directory: "dataset/runs/0003", held: 1, steps: nil,
      refusal: "holds its runs up to 1: a dataset's runs load in order"),
    Case(
      name: "a part into a new file", directory: "dataset/runs/0002", held: 0, steps: nil,
      refusal: "holds none of its runs: a dataset's runs load in order"),
  ]

  @Test(arguments: cases)
  func loadReadsWhatTheFileLacks(_ test: Case) throws {
    let dir = try TemporaryDirectory()
    _ = try dir.write("dataset/summary.json", Self.summary(#""dataset": {"id": "d-1", "runs": 3}"#))
    for run in test.parts {
      _ = try dir.write(
        String(format: "dataset/runs/%04d/summary.json", run),
        Self.summary(#""part_of": {"dataset": "d-1", "run": \#(run)}"#))
    }
    let database = try PullParityDatabase(path: dir.path("new.sqlite"))
    try Self.hold(test.held, of: "d-1", in: database)
    let loader = RunLoader(database: database)
    let directory = dir.path(test.directory)
    let plan = { try loader.plan(directory, summary: try RunLoader.summary(in: directory)) }
    guard let expected = test.steps else {
      let error = #expect(throws: (any Error).self) { try plan() }
      #expect("\(error.map { "\($0)" } ?? "")".contains(test.refusal), "\(String(describing: error))")
      return
    }
    let steps = try #require(try plan())
    #expect(steps.map(\.directory) == expected.map { dir.path($0.0) })
    #expect(steps.map(\.runs) == expected.map(\.1))
    #expect(steps.allSatisfy { $0.dataset == "d-1" })
  }

  /// A run of no dataset is loaded whole, every time.
  @Test func aRunOfNoDatasetIsLoadedWhole() throws {
    let dir = try TemporaryDirectory()
    _ = try dir.write("run/summary.json", Self.summary(nil))
    let database = try PullParityDatabase(path: dir.path("new.sqlite"))
    let run = dir.path("run")
    #expect(try RunLoader(database: database).plan(run, summary: try RunLoader.summary(in: run)) == nil)
  }

  /// Records runs 1 to `held` of `dataset`, each loaded by a run of the ledger.
  static func hold(_ held: Int, of dataset: String, in database: PullParityDatabase) throws {
    guard held > 0 else { return }
    let runID = try IngestLedger.begin(database, sources: [], toolVersion: "test", profileVersions: [:], parser: "test")
    try database.write { try DatasetRuns.record(dataset, runs: 1...held, runID: runID, $0) }
    try IngestLedger.finish(database, runID: runID, status: .completed, totals: RunCounts(), durationMs: 0)
  }

  static func summary(_ place: String?) -> String {
    """
    {"format": "pullparity-run", "format_version": 1, "sources": ["a.jsonl"], "lines_read": 1, "blank_lines": 0,
     "events_stored": 1, "duplicates": 0, "conflicts": 0, "quarantined": 0, "already_quarantined": 0,
     "sessions_derived": 1, "tool_version": "0.1.0", "engine": "spark 4.3.0"\(place.map { ", " + $0 } ?? "")}
    """
  }
}
