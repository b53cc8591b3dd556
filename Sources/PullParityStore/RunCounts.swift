/// The counters of an ingest run, as `ingest_runs` records them.
public struct RunCounts: Equatable, Sendable {
  public var linesRead = 0
  public var blankLines = 0
  public var eventsStored = 0
  public var duplicates = 0
  public var conflicts = 0
  public var quarantined = 0
  public var sessionsDerived = 0

  public init() {}

  public static func += (lhs: inout RunCounts, rhs: RunCounts) {
    lhs.linesRead += rhs.linesRead
    lhs.blankLines += rhs.blankLines
    lhs.eventsStored += rhs.eventsStored
    lhs.duplicates += rhs.duplicates
    lhs.conflicts += rhs.conflicts
    lhs.quarantined += rhs.quarantined
    lhs.sessionsDerived += rhs.sessionsDerived
  }
}
