import PullParityCore
import PullParityDistributed
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

  /// Each load made, with the directory it read: one for a run; for a daily dataset, those of
  /// its runs the file lacked (none when it had them all).
  func run(directory: String, leavingEvents: Bool = false) throws -> [(String, RunLoader.Outcome)] {
    let loads = try PipeDiagnostic.reporting {
      try RunLoader(database: database).loadNew(directory: directory, leavingEvents: leavingEvents)
    }
    for (_, outcome) in loads { DigestFrontend.note(outcome.digests) }
    return loads
  }

  /// What `describe` says of each load, or that there was nothing new to load.
  func describe(_ loads: [(String, RunLoader.Outcome)], from directory: String) -> String {
    guard !loads.isEmpty else {
      return "Nothing loaded: \(TerminalText.escaped(database.path)) holds every run of "
        + "\(TerminalText.escaped(directory)) already\n"
    }
    return loads.map { describe($0.1, from: $0.0) }.joined()
  }

  /// What the load stored: the run's counts on a new file; on one that held some of the run,
  /// what was new to it (the rest are duplicates and bad lines already quarantined).
  func describe(_ outcome: RunLoader.Outcome, from directory: String) -> String {
    let (s, c) = (outcome.summary, outcome.counts)
    let events = outcome.eventsLeft.map { ("events left in " + TerminalText.escaped($0.directory), $0.events) }
    var what = [
      ("lines read", c.linesRead), events ?? ("events stored", c.eventsStored), ("duplicates", c.duplicates),
      ("conflicts", c.conflicts), ("quarantined", c.quarantined),
    ].map { "\(NumberText.thousands($0.1)) \($0.0)" }
    if c.alreadyQuarantined > 0 { what.append("\(NumberText.thousands(c.alreadyQuarantined)) already quarantined") }
    what.append("\(NumberText.thousands(c.sessionsDerived)) sessions")
    let from = TerminalText.escaped(directory)
    return "Loaded \(from) (\(TerminalText.escaped(s.engine))) into \(TerminalText.escaped(database.path)): "
      + what.joined(separator: ", ") + "\n"
  }

  /// What `ingest` prints for the inputs it could not read to their end, one line each.
  func describeInputErrors(_ s: RunSummaryFile) -> String {
    InputErrorLines.text(s.inputErrors ?? [])
  }
}
