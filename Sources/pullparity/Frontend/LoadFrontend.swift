import PullParityDistributed
import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

/// Runs `pullparity load`, says what was loaded, and names the inputs the run could not read to their end.
struct LoadFrontend {
  var database: PullParityDatabase

  /// Fails, as `run` would, when `directory` holds no readable summary or profiles.
  static func check(_ directory: String) throws {
    try PipeDiagnostic.reporting { try RunLoader.check(directory: directory) }
  }

  func run(directory: String) throws -> RunSummaryFile {
    let summary = try PipeDiagnostic.reporting { try RunLoader(database: database).load(directory: directory) }
    try DigestFrontend.refresh(database)
    return summary
  }

  func describe(_ s: RunSummaryFile, from directory: String) -> String {
    let what = [
      ("lines read", s.linesRead), ("events stored", s.eventsStored), ("duplicates", s.duplicates),
      ("conflicts", s.conflicts), ("quarantined", s.quarantined), ("sessions", s.sessionsDerived),
    ].map { "\(NumberText.thousands($0.1)) \($0.0)" }.joined(separator: ", ")
    let from = TerminalText.escaped(directory)
    return "Loaded \(from) (\(TerminalText.escaped(s.engine))) into \(TerminalText.escaped(database.path)): \(what)\n"
  }

  /// What `ingest` prints for the inputs it could not read to their end, one line each.
  func describeInputErrors(_ s: RunSummaryFile) -> String {
    InputErrorLines.text(s.inputErrors ?? [])
  }
}
