import PullParityIngest
import PullParityReport
import PullParityStore

/// Runs `pullparity load` and says what was loaded.
struct LoadFrontend {
  var database: PullParityDatabase

  func run(directory: String) throws -> String {
    let s = try PipeDiagnostic.reporting { try RunLoader(database: database).load(directory: directory) }
    DigestFrontend.refresh(database)
    let what = [
      ("lines read", s.linesRead), ("events stored", s.eventsStored), ("duplicates", s.duplicates),
      ("conflicts", s.conflicts), ("quarantined", s.quarantined), ("sessions", s.sessionsDerived),
    ].map { "\(Formatted.thousands($0.1)) \($0.0)" }.joined(separator: ", ")
    let from = TerminalText.escaped(directory)
    return "Loaded \(from) (\(TerminalText.escaped(s.engine))) into \(TerminalText.escaped(database.path)): \(what)\n"
  }
}
