import ArgumentParser
import PullParityReport

extension PullParity {
  struct Budgets: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Propose each rule's budget from what was observed, to freeze today and gate on regressions.",
      discussion: """
        For every profile and rule, the worst platform's rate today (grouped by trigger, as `report` groups) and a budget: the upper bound of that rate's 95% interval, rounded up to a whole percent, or 0 where no session broke the rule. With those budgets `report --check` passes on today's data and fails when a rule gets worse. `--format json` writes them as a profile file (each profile in force with its budgets set and its version raised by one) for `pullparity replay --profiles FILE`, which stores it.

        A budget must be able to fail: only platforms where the rule judged --min-sessions sessions (default 30) are drawn from, and no budget is above 99%. A rule with no such platform gets no proposal and keeps its profile's budget; the text says so under "Not proposed or capped", the JSON under "not_proposed" (and "capped").

        Examples:
          pullparity budgets --app padel
          pullparity budgets --format json > budgets.json && pullparity replay --profiles budgets.json
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var source: SessionSourceOptions

    @Option(
      help: ArgumentHelp(
        "Sessions a platform's rule needs to be drawn from; a rule with fewer everywhere gets no budget.",
        valueName: "n"))
    var minSessions = VerdictPolicy.defaultMinSessions

    @Option(help: ArgumentHelp("Output format: text, or json (a profile file).", valueName: "format"))
    var format: TextOrJSON = .text

    func validate() throws {
      guard minSessions >= 1 else { throw ValidationError("--min-sessions must be 1 or more") }
    }

    func run() throws {
      let frontend = ReportFrontend(
        database: try database.open(readOnly: true), databaseName: database.path, fromSessions: source.fromSessions)
      let report = try frontend.input(filter: try filters.filter(), dimension: .trigger, format: .json).report
      let proposal = BudgetProposal(report, minSessions: minSessions)
      try FileHandleOutput.standardOutput.write(
        try format.render(ProposedProfileFile(proposal)) { BudgetProposalTextRenderer(style: $0).render(proposal) })
    }
  }
}
