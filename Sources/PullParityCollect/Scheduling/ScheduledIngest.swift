package import PullParityIngest

/// `--db FILE --ingest-every SECONDS`: where and how often closed spool files are ingested.
package struct ScheduledIngest: Sendable {
  package var databasePath: String
  package var everySeconds: Double
  package var options: IngestOptions
  package var lockTimeout: Double
  /// Given, each change of an app's platform verdict is posted after the round that made it.
  package var alerts: AlertSettings?

  package init(databasePath: String, everySeconds: Double, options: IngestOptions, lockTimeout: Double) {
    self.databasePath = databasePath
    self.everySeconds = everySeconds
    self.options = options
    self.lockTimeout = lockTimeout
  }
}
