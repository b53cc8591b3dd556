import ArgumentParser
import PullParityIngest
import PullParityReport

extension PullParity {
  struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Rebuild sessions and violations from the stored raw events, in one transaction.",
      discussion: """
        Run after changing a profile or upgrading PullParity: every session is derived again with the current rules, and the sessions whose outcome or violations changed are listed.

        Example:
          pullparity replay --profiles my-profiles.json
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions

    func run() throws {
      let db = try database.open()
      let summary = try Replayer(database: db, profiles: try profiles.catalog()).run()
      DigestFrontend.refresh(db)
      var lines = [
        "Replayed \(Formatted.thousands(summary.events)) events into \(Formatted.thousands(summary.sessions)) sessions in \(Formatted.seconds(summary.durationSeconds)).",
        "Changed: \(summary.changed.count) sessions (outcome or violations differ); new: \(summary.added); gone: \(summary.removed).",
      ]
      for id in summary.changed.prefix(20) { lines.append("  \(TerminalText.escaped(id))") }
      if summary.changed.count > 20 { lines.append("  … and \(summary.changed.count - 20) more") }
      try FileHandleOutput.standardOutput.write(lines.joined(separator: "\n") + "\n")
    }
  }
}
