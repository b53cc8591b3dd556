import PullParityCore
import PullParityDistributed
import PullParityIngest
import PullParityReport
import PullParityStore

/// Runs a replay for the command line and says what it changed.
struct ReplayFrontend {
  /// Changed sessions named in the summary.
  static let changedShown = 20

  var database: PullParityDatabase
  var profiles: ProfileCatalog
  /// `--read-events`: sessions whose events were left in run directories are derived from there.
  var readEvents = false

  func run() throws -> ReplaySummary {
    let summary = try PipeDiagnostic.reporting {
      try Replayer(database: database, profiles: profiles, leftEvents: readEvents ? RunDirectoryEvents() : nil).run()
    }
    DigestFrontend.note(summary.digests)
    return summary
  }

  func describe(_ summary: ReplaySummary) -> String {
    var lines = [
      "Replayed \(NumberText.thousands(summary.events)) events into \(NumberText.thousands(summary.sessions)) sessions in \(NumberText.seconds(summary.durationSeconds)).",
      "Changed: \(summary.changed.count) sessions (outcome or violations differ); new: \(summary.added); gone: \(summary.removed).",
    ]
    if summary.keptWithoutRaw > 0 {
      lines.append(
        "Kept as stored: \(NumberText.thousands(summary.keptWithoutRaw)) sessions whose raw events `pullparity retain` "
          + "dropped can no longer be derived again (`pullparity retain --list`).")
    }
    if summary.keptLeftInRuns > 0 {
      lines.append(
        "Kept as loaded: \(NumberText.thousands(summary.keptLeftInRuns)) sessions whose raw events `pullparity load "
          + "--leave-events` left in " + summary.leftDirectories.map(TerminalText.escaped).joined(separator: ", ")
          + "; add --read-events to derive them again from there.")
    }
    for id in summary.changed.prefix(Self.changedShown) { lines.append("  \(TerminalText.escaped(id))") }
    if summary.changed.count > Self.changedShown {
      lines.append("  … and \(summary.changed.count - Self.changedShown) more")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
