/// The counters of an ingest run, as `ingest_runs` records them.
///
/// A run's lines add up: `linesRead` = `eventsStored` + `duplicates` + `conflicts` +
/// `quarantined` + `alreadyQuarantined` + `blankLines`. Lines of chunks that a run which left
/// its work undone had committed are `linesResumed` and nothing else, so the counters summed
/// over a killed run and the run that finished its work equal those of one clean run.
package struct RunCounts: Equatable, Sendable {
  /// Lines this run accounted for (resumed lines are not among them).
  package var linesRead = 0
  package var blankLines = 0
  package var eventsStored = 0
  package var duplicates = 0
  /// Conflicts this run added to the quarantine.
  package var conflicts = 0
  /// Malformed lines this run added to the quarantine.
  package var quarantined = 0
  /// Bad lines (conflicts included) that were in the quarantine already.
  package var alreadyQuarantined = 0
  /// Lines read again that an earlier, unfinished run had committed and counted.
  package var linesResumed = 0
  package var sessionsDerived = 0

  package init() {}

  package static func += (lhs: inout RunCounts, rhs: RunCounts) {
    lhs.linesRead += rhs.linesRead
    lhs.blankLines += rhs.blankLines
    lhs.eventsStored += rhs.eventsStored
    lhs.duplicates += rhs.duplicates
    lhs.conflicts += rhs.conflicts
    lhs.quarantined += rhs.quarantined
    lhs.alreadyQuarantined += rhs.alreadyQuarantined
    lhs.linesResumed += rhs.linesResumed
    lhs.sessionsDerived += rhs.sessionsDerived
  }
}
