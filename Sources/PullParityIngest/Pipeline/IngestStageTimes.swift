/// Where an ingest spent its time, in seconds. Reading and parsing run on their own thread,
/// alongside the writer, so the stages add up to more than the wall time.
package struct IngestStageTimes: Sendable, Equatable {
  /// Reading, decompressing, splitting lines, parsing them and deriving the chunk's sessions
  /// (the reading thread).
  package var readAndParse = 0.0
  /// Duplicate checks and inserts of events and quarantined lines.
  package var storeEvents = 0.0
  /// Sessions that had events stored before: reading them back and running the state machine.
  package var derive = 0.0
  /// Writing sessions and violations.
  package var storeSessions = 0.0
  /// Committing transactions (the WAL write).
  package var commit = 0.0
  /// The writer waiting for the next parsed chunk.
  package var waitingForInput = 0.0
  /// The run's last transaction: the sessions whose stuck, dropped or repeated refresh their
  /// stored context decides, derived again (`CrossSessionJudge`).
  package var judgeAcrossSessions = 0.0
  /// After the run: counting the report digests of the days it touched (the command does it,
  /// not the ingest, so it is not part of the wall time).
  package var reportDigests = 0.0
  /// Sessions read back and derived from all their stored events: once per transaction that
  /// touched a session with events stored before (not a time: the count that keeps a huge
  /// session from costing quadratic time).
  package var sessionsReadBack = 0

  package init() {}
}
