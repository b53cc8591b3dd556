import ArgumentParser
import PullParityIngest

extension PullParity {
  struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Store raw events, derive sessions, print a summary.",
      discussion: """
        PATH is a JSON-lines file (optionally .gz), a directory (its *.jsonl and *.ndjson files, optionally .gz, in path order), or - for standard input (plain or gzip). Bad lines are quarantined with file, line and reason; they never stop the run. Ingesting the same input again changes nothing. SIGINT or SIGTERM stops after the current transaction (exit 130 or 143); run the same command again to finish.

        Examples:
          pullparity ingest sample-events --report
          zcat logs/*.gz | pullparity ingest --db parity.sqlite -
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions

    @Argument(help: ArgumentHelp("Files, directories, or - for standard input.", valueName: "path"))
    var paths: [String]

    @Flag(help: "Exit 1 when any line was quarantined (the good lines are still stored).")
    var strict = false

    @Flag(help: "Print the parity report after the summary.")
    var report = false

    @Flag(help: "No progress bar.")
    var quiet = false

    @Flag(help: "Print where the time went (read and parse, store, derive, commit).")
    var stats = false

    @Option(help: ArgumentHelp("Lines per transaction.", valueName: "n"))
    var transactionLines = IngestOptions.defaultTransactionLines

    @Option(
      help: ArgumentHelp(
        "Longer lines are quarantined as too_long, unread (default 16 MiB, at most 512 MiB).", valueName: "bytes"))
    var maxLineBytes = IngestOptions.defaultMaxLineBytes

    func validate() throws {
      guard !paths.isEmpty else { throw ValidationError("name at least one file, directory or -") }
      guard (1...IngestOptions.largestTransactionLines).contains(transactionLines) else {
        throw ValidationError("--transaction-lines must be 1 to \(IngestOptions.largestTransactionLines)")
      }
      guard (1...IngestOptions.largestMaxLineBytes).contains(maxLineBytes) else {
        throw ValidationError("--max-line-bytes must be between 1 and \(IngestOptions.largestMaxLineBytes) (512 MiB)")
      }
    }

    func run() throws {
      // Profiles and inputs first: a bad profile file or a path that names nothing must fail
      // before the database is created or waited for.
      let options = try options()
      let inputs = try InputCatalog.expand(paths)
      let frontend = IngestFrontend(database: try database.open(quiet: quiet), options: options, quiet: quiet)
      let summary = try frontend.run(inputs)
      try frontend.write(summary, stats: stats, reportAs: report ? database.path : nil)
      let code = frontend.exitCode(summary, strict: strict)
      if code != 0 { throw ExitCode(code) }
    }

    private func options() throws -> IngestOptions {
      var options = IngestOptions(
        transactionLines: transactionLines, profiles: try profiles.catalog(),
        toolVersion: PullParity.version)
      options.maxLineBytes = maxLineBytes
      return options
    }
  }
}
