package import GRDB

/// The runs of a daily dataset (`pullparity_spark.py --append`) that loads put in the file
/// (`dataset_runs`, schema 17), so that `load` of the dataset adds only the runs after them.
package enum DatasetRuns {
  /// The last run of dataset `id` the file holds; nil when it holds none.
  package static func lastLoaded(_ id: String, _ db: Database) throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT max(run_number) FROM dataset_runs WHERE dataset_id = ?", arguments: [id])
  }

  /// Records that the load `runID` stored runs `runs` of dataset `id`.
  package static func record(_ id: String, runs: ClosedRange<Int>, runID: Int64, _ db: Database) throws {
    for run in runs {
      try db.execute(
        sql: "INSERT INTO dataset_runs (dataset_id, run_number, run_id) VALUES (?, ?, ?)",
        arguments: [id, run, runID])
    }
  }
}
