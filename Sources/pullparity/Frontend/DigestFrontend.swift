import PullParityReport
import PullParityStore

/// Brings the report digests up to date at the end of a command that wrote sessions. A failure
/// here costs speed, not correctness (reports read the sessions of days whose digests are
/// stale), so it is a note on stderr and does not change the command's outcome, unless the
/// file is damaged (`StoreError.isDamage`): then the command fails, as every report would.
enum DigestFrontend {
  /// Returns the seconds it took.
  @discardableResult
  static func refresh(_ database: PullParityDatabase) throws -> Double {
    let start = database.clock.elapsed()
    do {
      try DigestRefresh.run(database)
    } catch let error as StoreError where error.isDamage {
      throw error
    } catch {
      let note =
        "Note: the report digests were not brought up to date (\(error)); reports read those days' "
        + "sessions until the next ingest, replay or load."
      try? FileHandleOutput.standardError.write(TerminalText.escaped(note) + "\n")
    }
    return database.clock.seconds(since: start)
  }
}
