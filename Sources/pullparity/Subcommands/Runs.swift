import ArgumentParser

extension PullParity {
  struct Runs: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the ingest runs the database records, newest first, with their counts.",
      discussion: """
        One row per `pullparity ingest` from the ingest_runs table: when it started, how it ended (completed, interrupted, failed, or running while one is under way), how long it took, and its lines, stored events, duplicates, conflicts, quarantined lines and sessions derived.

        Examples:
          pullparity runs
          pullparity runs --limit 5 --format json
        """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("At most this many runs; 0 for all.", valueName: "n"))
    var limit = 0

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    func validate() throws {
      guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
      let frontend = RunsFrontend(database: try database.open(readOnly: true))
      try FileHandleOutput.standardOutput.write(try frontend.render(limit: limit == 0 ? nil : limit, format: format))
    }
  }
}
