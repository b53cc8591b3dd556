import ArgumentParser

extension PullParity {
  struct Retain: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Drop stored raw events older than a date, keeping every derived row.",
      discussion: """
        Drops the raw events of every session whose stored events are all older than --before; a session with an event at or after --before keeps all its events, so it can still be derived again. Blocks that also hold kept events are rewritten without the dropped ones, in transactions of at most 64 blocks. Sessions, violations, digests, the quarantine, the run ledger and the dropped events' ids stay (sent again, such an event is a duplicate and derives nothing). Sessions that lose their raw events can no longer be derived again: replay keeps their stored rows and counts them, ingest never derives them again, and `pullparity session` names the retention run. Each run is recorded in retention_runs (--list shows them). The pages freed are reused by later ingests before the file grows; --vacuum also gives them back to the file system (VACUUM: it rewrites the file, needs free disk space as large as it, and holds off other writers meanwhile; its page cache is 8 MiB whatever --cache-size, and when it fails the drop stays done).

        Examples:
          pullparity retain --before 2026-01-01
          pullparity retain --before 2026-01-01 --vacuum
          pullparity retain --list
        """)

    @OptionGroup var database: DatabaseOptions

    @Option(
      help: ArgumentHelp(
        "Drop the raw events of sessions all older than this time (RFC 3339 or YYYY-MM-DD, UTC).", valueName: "time"))
    var before: String?

    @Flag(help: "After dropping, VACUUM the file so that its size shrinks.")
    var vacuum = false

    @Flag(help: "List what earlier runs of retain dropped, newest first.")
    var list = false

    func validate() throws {
      guard (before != nil) != list else { throw ValidationError("give either --before TIME or --list") }
      if vacuum, before == nil { throw ValidationError("--vacuum goes with --before") }
    }

    func run() throws {
      if list {
        let frontend = RetainFrontend(database: try database.open(readOnly: true))
        return try FileHandleOutput.standardOutput.write(try frontend.listing())
      }
      let beforeMs = try FilterOptions.time(before, "--before")!
      let frontend = RetainFrontend(database: try database.open())
      try FileHandleOutput.standardOutput.write(try frontend.drop(before: beforeMs, named: before!, vacuum: vacuum))
      let instead = "retain drops only events stored in the file: delete a run's days there to drop theirs"
      if let note = try LeftEventsNote.text(frontend.database, instead: instead) {
        try FileHandleOutput.standardError.write(note)
      }
    }
  }
}
