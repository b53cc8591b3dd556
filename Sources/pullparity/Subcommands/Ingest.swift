import ArgumentParser
import PullParityIngest
import PullParityReport

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
    var transactionLines = 200_000

    @Option(help: ArgumentHelp("JSON parser: simdjson or foundation.", valueName: "name"))
    var parser: ParserKind = .simdjson

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
      let catalog = try profiles.catalog()
      let db = try database.open()
      var options = IngestOptions(
        transactionLines: transactionLines, parser: parser, profiles: catalog, toolVersion: PullParity.version)
      options.maxLineBytes = maxLineBytes
      let frontend = IngestFrontend(database: db, options: options, quiet: quiet)
      let summary = try frontend.run(paths: paths)
      try FileHandleOutput.standardOutput.write(try frontend.describe(summary))
      if stats { try FileHandleOutput.standardOutput.write(frontend.describeStages(summary)) }
      if report {
        let frontend = ReportFrontend(database: db, databaseName: database.path)
        let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
        let input = try frontend.input(filter: .init(), dimension: .trigger, format: .text, style: style)
        try FileHandleOutput.standardOutput.write("\n" + (try ReportFormat.text.render(input)))
      }
      for error in summary.inputErrors {
        try FileHandleOutput.standardError.write("Error: " + TerminalText.escaped("\(error)") + "\n")
      }
      if let stop = frontend.describeStop(summary) {
        try FileHandleOutput.standardError.write(stop)
        throw ExitCode(InterruptFlag.exitCode)
      }
      if !summary.inputErrors.isEmpty { throw ExitCode(2) }
      let c = summary.counts
      if strict, c.quarantined + c.conflicts + c.alreadyQuarantined > 0 { throw ExitCode(1) }
    }
  }
}

extension ParserKind: ExpressibleByArgument {}
