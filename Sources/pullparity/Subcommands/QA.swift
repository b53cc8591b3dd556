import ArgumentParser
import PullParityReport
import PullParityStore

extension PullParity {
  struct QA: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "qa",
      abstract: "Evaluate the QA checklist per app and platform; exit 1 when an item fails.",
      discussion: """
        Items 1–6 are the Padel spec's QA checklist; the others are the same kind of check for the FFCI and Phlock rules, applied where an app's profile calls for them. Each item prints pass/fail, the numbers behind it and up to three failing session ids. Every rule `report --check` judges has its item, judged as `report` judges the rule: it fails when the rule's rate exceeds its budget (--budget, else the profile's budgets, else 0), which it prints, so `qa` and `report --check` fail on the same rules (the fast-load item too: its fast loads are the evidence, the flash rule and its budget the verdict). Drag tracking, empty state and tab re-select check what no rule does and fail on any failing session; `--format json` lists them (items_beyond_the_rules) and the rules no item checks (rules_not_checked: none). An item judged on fewer than --min-sessions sessions (default 30) says "insufficient data" and neither passes nor fails. An item counts only the sessions where what it measures was logged (item 1 needs pull_move offsets, item 3 and the late hide indicator_shown, item 5 labels): with none it says "no data", never pass.

        Exit codes: 0 every item with enough data passed; 1 an item failed, no item had enough sessions for a verdict, or (with --require-data) an item had too few or no data; 2 the filters match no session. Sessions are judged with the profiles stored in the database.

        Examples:
          pullparity qa
          pullparity qa --app padel --platform ios --format json
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var tolerances: ToleranceOptions
    @OptionGroup var verdicts: VerdictOptions
    @OptionGroup var source: SessionSourceOptions

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    func run() throws {
      let filter = try filters.filter()
      let frontend = ReportFrontend(
        database: try database.open(readOnly: true), databaseName: database.path,
        tolerances: tolerances.tolerances(default: .default),
        policy: verdicts.policy, fromSessions: source.fromSessions)
      let report = try frontend.qa(filter)
      try FileHandleOutput.standardOutput.write(try format.render(report) { QATextRenderer(style: $0).render(report) })
      if report.outcome != .passed { throw ExitCode(report.outcome.exitCode) }
    }
  }
}
