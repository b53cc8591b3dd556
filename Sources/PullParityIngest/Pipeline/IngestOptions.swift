package import PullParityCore
internal import PullParityStore

/// How an ingest runs.
package struct IngestOptions: Sendable {
  /// Lines per transaction: the unit of crash safety (a killed run keeps whole transactions).
  package var transactionLines: Int
  /// Each commit writes every page its transaction changed to the WAL, and a day of random
  /// session ids changes nearly every page of the sessions' indexes in every transaction: a day
  /// into five overlapping days of random ids took 0.82–0.84 × the time into an empty file
  /// with 200,000 lines a transaction, 0.95–0.96 × with 500,000 (issue 41). Peak memory stayed
  /// the same (223–247 MB on 1M events either way); a killed run redoes up to 2 s more.
  package static let defaultTransactionLines = 500_000
  /// The most `transactionLines` may be: a transaction's lines are all in the WAL until it
  /// commits (about 1 GB per million lines), and a killed run redoes all of them.
  package static let largestTransactionLines = 100_000_000
  /// The most lines the reading thread hands over at once (several make a transaction): small
  /// enough that memory stays low and the writer starts early.
  package var maxChunkLines = 25_000
  /// Lines longer than this (bytes, without the line end) are quarantined as `too_long` without
  /// being held in memory: one runaway line must not take the memory or the run.
  package var maxLineBytes = Self.defaultMaxLineBytes
  package static let defaultMaxLineBytes = 16 << 20
  /// The most `maxLineBytes` may be: SQLite stores a value of at most 1 GB, and parsing holds a
  /// line about twice.
  package static let largestMaxLineBytes = 512 << 20
  package var profiles: ProfileCatalog
  /// Recorded in `ingest_runs.tool_version`.
  package var toolVersion: String
  /// Random ids' keys per key epoch (`KeyEpochs`), of events and sessions alike; nil: each
  /// key space's default. Tests make epochs small.
  package var keyEpochCapacity: Int?

  package init(
    transactionLines: Int = defaultTransactionLines, profiles: ProfileCatalog = ProfileCatalog(),
    toolVersion: String
  ) {
    self.transactionLines = transactionLines
    self.profiles = profiles
    self.toolVersion = toolVersion
  }
}
