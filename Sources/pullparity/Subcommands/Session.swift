import ArgumentParser
import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

extension PullParity {
  struct Session: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replay one session: its events in order, the state after each, every finding.",
      discussion: """
        The session is re-derived from its stored raw events with the profile stored in the database for it, exactly as ingest derived it. ID may be a unique prefix of a session id.

        Example:
          pullparity session 3f2a9c
        """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The session id, or a unique prefix of it.")
    var id: String

    func run() throws {
      let queries = ReportQueries(try database.open(readOnly: true))
      var catalog = ProfileCatalog()
      catalog.merge(try queries.storedProfiles().map(\.profile))
      var stored = try queries.storedEvents(ofSession: id)
      if stored.isEmpty {
        let matches = try queries.sessionIDs(startingWith: id)
        guard matches.count == 1 else {
          throw ValidationError(
            matches.isEmpty
              ? "no session \"\(id)\" in \(database.path)"
              : "\"\(id)\" matches several sessions: \(matches.joined(separator: ", "))")
        }
        stored = try queries.storedEvents(ofSession: matches[0])
      }
      var decoder = LineDecoder(.simdjson)
      let recorded = stored.compactMap { stored -> RecordedEvent? in
        guard case .event(let event) = decoder.decode(stored.raw) else { return nil }
        return RecordedEvent(event: event, source: stored.source, line: stored.line)
      }
      let (session, steps) = SessionDeriver.trace(recorded, profiles: catalog)
      let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
      FileHandleOutput.standardOutput.write(SessionTraceRenderer(style: style).render(session, steps: steps))
    }
  }
}
