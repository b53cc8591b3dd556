import ArgumentParser
import PullParityReport

extension PullParity {
  struct Session: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replay one session: its events in order, the state after each, every finding.",
      discussion: """
        The session is re-derived from its stored raw events with the profile stored in the database for it, exactly as ingest derived it. A session loaded with `load --leave-events` has its events in the run directory, not the file: --read-events reads them from there (else the command says where they are). ID may be a unique prefix of a session id, in any case (iOS writes upper-case UUIDs). Text from the logs (labels, screens, errors) is printed with its control characters shown as \\u{…}.

        Examples:
          pullparity session 3f2a9c
          pullparity session 3F2A9C4E-0B1D --db parity.sqlite
        """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The session id, or a unique prefix of it (any case).")
    var id: String

    @Flag(help: "Read the session's events from the run directory `load --leave-events` left them in.")
    var readEvents = false

    func run() throws {
      let frontend = SessionFrontend(
        database: try database.open(readOnly: true), databaseName: database.path, readEvents: readEvents)
      let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
      try FileHandleOutput.standardOutput.write(try frontend.trace(id, style: style))
    }
  }
}
