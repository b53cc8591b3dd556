import ArgumentParser
import PullParityReport
import PullParityStore

extension PullParity {
  struct QA: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "qa",
      abstract: "Evaluate the QA checklist per app and platform; exit 1 when an item fails.",
      discussion: """
        Items 1–6 are the Padel spec's checklist (seed 000); the others are the same kind of check for the FFCI and Phlock rules, applied where an app's profile calls for them. Each item prints pass/fail, the numbers behind it and up to three failing session ids.

        Examples:
          pullparity qa
          pullparity qa --app padel --platform ios --format json
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var tolerances: ToleranceOptions

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    func run() throws {
      let filter = try filters.filter()
      let db = try database.open(readOnly: true)
      let queries = ReportQueries(db)
      let report = QAChecklist(profiles: try profiles.catalog(), tolerances: tolerances.tolerances)
        .evaluate(sessions: try queries.sessions(filter), violations: try queries.violations(filter), filter: filter)
      switch format {
      case .text:
        let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
        FileHandleOutput.standardOutput.write(QATextRenderer(style: style).render(report))
      case .json:
        FileHandleOutput.standardOutput.write(try JSONRendering.render(report))
      }
      if !report.passed { throw ExitCode(1) }
    }
  }
}
