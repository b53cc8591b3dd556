import ArgumentParser
import PullParityIngest
import PullParityReport

#if canImport(Glibc)
  import Glibc
#endif

@main
struct PullParity: ParsableCommand {
  static let version = ToolVersion.current

  static let configuration = CommandConfiguration(
    commandName: "pullparity",
    abstract: "Tells whether pull-to-refresh behaves the same on every platform.",
    discussion: """
      Ingest JSON-lines gesture logs into a SQLite file, then compare platforms and run the QA checklist. Exit codes: 0 all good, 1 a check found a problem (qa, report --check, compare, ingest --strict), 2 the command could not do its job (usage, input, database).

      Example:
        pullparity ingest sample-events --report
      """,
    version: version,
    subcommands: [
      Ingest.self, Report.self, QA.self, Compare.self, Session.self, Replay.self, Profiles.self,
      Budgets.self, SchemaDocs.self, Quarantine.self, Runs.self, Decode.self, Derive.self, Load.self, Export.self,
      Retain.self, Collect.self, Verify.self,
    ]
  )

  /// Like ArgumentParser's own entry point, except that every error exits 2, keeping 1 for
  /// "a check failed" so CI can tell the two apart.
  static func main() {
    do {
      try checkHelpTopic(Array(CommandLine.arguments.dropFirst()))
      var command = try parseAsRoot()
      try command.run()
    } catch let exit as ExitCode {
      Glibc.exit(exit.rawValue)
    } catch let output as OutputError where output.isClosedPipe {
      // The reader went away (`| head`): end as the default SIGPIPE would, without a message.
      Glibc.exit(128 + SIGPIPE)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        self.exit(withError: error)
      }
      // Messages quote values from the database and the logs (apps, file names): the last
      // place to keep their escape sequences off the terminal, whichever error carries them.
      let message = TerminalText.escapedKeepingNewlines(fullMessage(for: error))
      // Nowhere is left to report a failed write to standard error itself.
      if !message.isEmpty { try? FileHandleOutput.standardError.write(message + "\n") }
      Glibc.exit(2)
    }
  }

  /// `pullparity help TOPIC`: ArgumentParser prints the top-level help for a topic that is no
  /// command and exits 0, which a script takes for success; an unknown topic is a usage error.
  static func checkHelpTopic(_ arguments: [String]) throws {
    guard arguments.first == "help" else { return }
    let names = configuration.subcommands.map { $0._commandName } + ["help"]
    for topic in arguments.dropFirst() where !topic.hasPrefix("-") && !names.contains(topic) {
      throw ValidationError("help: no command \"\(topic)\"; commands: \(names.joined(separator: ", "))")
    }
  }
}
