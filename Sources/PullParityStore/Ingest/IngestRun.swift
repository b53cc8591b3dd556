import Foundation
internal import GRDB

/// One row of the `ingest_runs` ledger.
package struct IngestRun: Sendable, Encodable {
  package var id: Int64
  package var startedAt: String
  package var finishedAt: String?
  /// running | completed | interrupted | failed.
  package var status: String
  /// The sources read, in order.
  package var sources: [String]
  package var linesRead: Int
  package var eventsStored: Int
  package var duplicates: Int
  package var conflicts: Int
  package var quarantined: Int
  /// Bad lines this run met that an earlier run had already quarantined.
  package var alreadyQuarantined: Int
  package var blankLines: Int
  /// Lines of chunks an interrupted run had committed, taken over rather than counted again.
  package var linesResumed: Int
  package var sessionsDerived: Int
  package var durationMs: Double?
  package var toolVersion: String
  package var parser: String
  /// When a later writer found this run dead and marked it `interrupted`.
  package var recoveredAt: String?
  /// A `load --leave-events`: the run directory its events were left in, and how many.
  package var eventsLeftIn: String?
  package var eventsLeft: Int?

  init(row: Row) {
    id = row["run_id"]
    startedAt = row["started_at"]
    finishedAt = row["finished_at"]
    status = row["status"]
    let sources: String = row["sources"]
    self.sources = (try? JSONDecoder().decode([String].self, from: Data(sources.utf8))) ?? [sources]
    linesRead = row["lines_read"]
    eventsStored = row["events_stored"]
    duplicates = row["duplicates"]
    conflicts = row["conflicts"]
    quarantined = row["quarantined"]
    alreadyQuarantined = row["already_quarantined"]
    blankLines = row["blank_lines"]
    linesResumed = row["lines_resumed"]
    sessionsDerived = row["sessions_derived"]
    durationMs = row["duration_ms"]
    toolVersion = row["tool_version"]
    parser = row["parser"]
    recoveredAt = row["recovered_at"]
    eventsLeftIn = row["events_left_in"]
    eventsLeft = row["events_left"]
  }

  enum CodingKeys: String, CodingKey {
    case id = "run_id"
    case startedAt = "started_at"
    case finishedAt = "finished_at"
    case status, sources
    case linesRead = "lines_read"
    case eventsStored = "events_stored"
    case duplicates, conflicts, quarantined
    case alreadyQuarantined = "already_quarantined"
    case blankLines = "blank_lines"
    case linesResumed = "lines_resumed"
    case recoveredAt = "recovered_at"
    case sessionsDerived = "sessions_derived"
    case durationMs = "duration_ms"
    case toolVersion = "tool_version"
    case parser
    case eventsLeftIn = "events_left_in"
    case eventsLeft = "events_left"
  }
}
