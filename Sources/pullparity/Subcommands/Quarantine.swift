import ArgumentParser
import PullParityStore

extension PullParity {
  struct Quarantine: ParsableCommand, ListsRows {
    static let rowName = "lines"
    static let defaultLimit = 100

    static let configuration = CommandConfiguration(
      abstract: "List the lines ingests refused, with file, line, reason and the line itself.",
      discussion: """
        Every bad line an ingest met is kept in the quarantine table once, with the field and what was wrong with it; an ingest's summary names the first few. Filters combine. Text shows each line's start with its control characters as \\u{…}; JSON has every column, the raw line whole, and for a line that is not UTF-8 its exact bytes in hex (raw_hex). Every line is read from its compressed block, checked against the block's checksum (exit 2 when it is damaged).

        Examples:
          pullparity quarantine
          pullparity quarantine --run 3 --reason missing_field
          pullparity quarantine --source logs/ios.jsonl --format json
        """)

    @OptionGroup var database: DatabaseOptions

    @Option(
      name: .customLong("run"),
      help: ArgumentHelp("Only lines quarantined by this run (see `pullparity runs`).", valueName: "id"))
    var runID: Int64?

    @Option(
      help: ArgumentHelp("Only this reason: not_json, missing_field, wrong_type, …, conflict.", valueName: "reason"))
    var reason: String?

    @Option(
      help: ArgumentHelp(
        "Only lines of this file, as the ingest was given it (`./x` and `x` are the same file).", valueName: "file"))
    var source: String?

    @OptionGroup var listing: ListingOptions<Quarantine>

    func run() throws {
      let frontend = QuarantineFrontend(database: try database.open(readOnly: true))
      let filter = QuarantineFilter(runID: runID, category: reason, source: source)
      try FileHandleOutput.standardOutput.write(
        try frontend.render(filter, limit: listing.maximum, format: listing.format))
    }
  }
}
