/// `summary.json` of a distributed run: what was read and what it came to, for `ingest_runs`,
/// and the counts `load` checks the tables against.
package struct RunSummaryFile: Codable, Equatable, Sendable {
  /// `pullparity-run`, so that `load` refuses a directory of something else.
  package var format: String
  package var formatVersion: Int
  package var sources: [String]
  package var linesRead: Int
  package var blankLines: Int
  package var eventsStored: Int
  package var duplicates: Int
  package var conflicts: Int
  package var quarantined: Int
  /// Bad lines whose bytes an earlier line of the run already quarantined (one row per bad line).
  package var alreadyQuarantined: Int
  package var sessionsDerived: Int
  /// Inputs that could not be read to their end (a damaged or cut gzip file), in ingest's words:
  /// the run holds the lines before the damage and the other inputs, and `load` ends with exit 2
  /// naming them, as `ingest` does. Absent from runs of jobs that never had to say it.
  package var inputErrors: [String]?
  package var durationMs: Double?
  package var toolVersion: String
  /// What ran the job, recorded as the run's `parser` (e.g. `spark 4.0.1 (simdjson)`).
  package var engine: String
  /// A daily dataset's summary (`--append`): its id and how many runs it holds, each with its
  /// own part in `runs/NNNN`. Absent from other runs and from datasets written before parts.
  package var dataset: Dataset?
  /// A daily run's own part (`OUT/runs/NNNN`): which dataset and which of its runs.
  package var partOf: Part?

  package struct Dataset: Codable, Equatable, Sendable {
    package var id: String
    package var runs: Int
  }

  package struct Part: Codable, Equatable, Sendable {
    package var dataset: String
    package var run: Int
  }

  enum CodingKeys: String, CodingKey {
    case format
    case formatVersion = "format_version"
    case sources
    case linesRead = "lines_read"
    case blankLines = "blank_lines"
    case eventsStored = "events_stored"
    case duplicates, conflicts, quarantined
    case sessionsDerived = "sessions_derived"
    case alreadyQuarantined = "already_quarantined"
    case inputErrors = "input_errors"
    case durationMs = "duration_ms"
    case toolVersion = "tool_version"
    case engine, dataset
    case partOf = "part_of"
  }

  package static let formatName = "pullparity-run"
}
