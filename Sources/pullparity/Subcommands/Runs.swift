import ArgumentParser

extension PullParity {
  struct Runs: ParsableCommand, ListsRows {
    static let rowName = "runs"
    static let defaultLimit = 0

    static let configuration = CommandConfiguration(
      abstract: "List the ingest runs the database records, newest first, with their counts.",
      discussion: """
        One row per `pullparity ingest` from the ingest_runs table: when it started, how it ended (completed, interrupted, failed, or running while one is under way), how long it took, and its lines, stored events, duplicates, conflicts, quarantined lines and sessions derived.

        Examples:
          pullparity runs
          pullparity runs --limit 5 --format json
        """)

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var listing: ListingOptions<Runs>

    func run() throws {
      let frontend = RunsFrontend(database: try database.open(readOnly: true))
      try FileHandleOutput.standardOutput.write(try frontend.render(limit: listing.maximum, format: listing.format))
    }
  }
}
