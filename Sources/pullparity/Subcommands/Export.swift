import ArgumentParser
import PullParityStore

extension PullParity {
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write stored raw events as JSON lines, byte for byte as they were ingested.",
      discussion: """
        The raw events are kept in compressed blocks (schema version 11), not as a row each: this is how to read them back, in full or by session, app, platform, event time or run. Criteria combine. Lines come in the order they were stored: a file's lines in file order when it was ingested alone, grouped by session within each transaction. With --with-origin each line is wrapped as {"source":…,"line":…,"byte_offset":…,"event":<the line>}, the line still byte for byte. On a terminal, control characters are shown as \\u{…}; to a pipe or a file the bytes are exact. Sessions whose raw events `pullparity retain` dropped have fewer lines or none.

        Examples:
          pullparity export > all.jsonl
          pullparity export --session 3f2a9c4e-0b1d-7c3e-9a51-0d2e6f7a8b9c
          pullparity export --app padel --platform ios --since 2026-11-01 --until 2026-11-08
          pullparity export --run 3 --with-origin | jq .source
        """)

    @OptionGroup var database: DatabaseOptions

    @Option(
      name: .customLong("session"), help: ArgumentHelp("Only this session's events (repeatable).", valueName: "id"))
    var sessions: [String] = []

    @Option(help: "Only events of sessions of this app.")
    var app: String?

    @Option(help: "Only events of sessions of this platform.")
    var platform: String?

    @Option(help: ArgumentHelp("Events at or after this time (RFC 3339 or YYYY-MM-DD, UTC).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Events before this time (RFC 3339 or YYYY-MM-DD, UTC).", valueName: "time"))
    var until: String?

    @Option(
      name: .customLong("run"),
      help: ArgumentHelp("Only events stored by this ingest or load run (see `pullparity runs`).", valueName: "id"))
    var runID: Int64?

    @Flag(help: "Wrap each line with its source file, line number and byte offset.")
    var withOrigin = false

    func run() throws {
      let selection = RawEventSelection(
        sessionIDs: sessions, app: app, platform: platform, sinceMs: try FilterOptions.time(since, "--since"),
        untilMs: try FilterOptions.time(until, "--until"), runID: runID)
      let opened = try database.open(readOnly: true)
      let frontend = ExportFrontend(database: opened, withOrigin: withOrigin)
      let written = try frontend.export(selection, to: .standardOutput)
      let instead =
        "export writes the events stored in the file; theirs are in each run's json/events files "
        + "(`pullparity session ID --read-events` reads one session's)"
      let note = try LeftEventsNote.text(opened, instead: instead)
      if let note { try FileHandleOutput.standardError.write(note) }
      // Nothing matched: exit 2, so that a script archiving before `retain` stops instead of
      // archiving nothing and dropping the data. A file whose events were left in their run
      // directories holds none: the note above says where they are, and that is no error.
      guard written > 0 || note != nil else {
        throw CommandError("no stored event matches the filters; nothing was exported")
      }
    }
  }
}
