/// `summary.json` of a distributed run: what was read and what it came to, for `ingest_runs`,
/// and the counts `load` checks the tables against.
public struct RunSummaryFile: Codable, Equatable, Sendable {
  /// `pullparity-run`, so that `load` refuses a directory of something else.
  public var format: String
  public var formatVersion: Int
  public var sources: [String]
  public var linesRead: Int
  public var blankLines: Int
  public var eventsStored: Int
  public var duplicates: Int
  public var conflicts: Int
  public var quarantined: Int
  /// Bad lines whose bytes an earlier line of the run already quarantined (one row per bad line).
  public var alreadyQuarantined: Int
  public var sessionsDerived: Int
  public var durationMs: Double?
  public var toolVersion: String
  /// What ran the job, recorded as the run's `parser` (e.g. `spark 4.0.1 (simdjson)`).
  public var engine: String

  enum CodingKeys: String, CodingKey {
    case format, formatVersion = "format_version", sources, linesRead = "lines_read", blankLines = "blank_lines"
    case eventsStored = "events_stored", duplicates, conflicts, quarantined, sessionsDerived = "sessions_derived"
    case alreadyQuarantined = "already_quarantined"
    case durationMs = "duration_ms", toolVersion = "tool_version", engine
  }

  public static let formatName = "pullparity-run"
}
