import ArgumentParser
import PullParityCore
import PullParityReport
import PullParityStore

extension PullParity {
  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare two cohorts of one app; exit 1 when the candidate regressed.",
      discussion: """
        A cohort is a selector: key=value pairs joined by commas, with the keys app_version, platform, screen, since and until (times as for --since). The common filters (--app, --platform, ...) apply to both cohorts; a selector may narrow them, not contradict them.

        Every metric of `report` is shown for both cohorts (p50 for distances and times, rates with numerator/denominator), with the change, the tolerance
        and a verdict:
          regression   the candidate is worse by more than the tolerance
          improvement  it is better by more than the tolerance
          unchanged    within the tolerance
        Flash, premature hide, label violation and arm mismatch rates are worse when higher, hold compliance when lower. Arm distance, client arm distance, time to arm and visible time are worse when they move either way: the goal is the profile's spec, the same on every platform, not a smaller number, so they never "improve".

        The profile's rules that no metric counts (late hide, reveal order, indicator config, cache order, error shown, content kept on error, double refresh) are compared as rates too, so a fixed or new app-specific defect shows. A rate regresses only when the whole 95% confidence interval of its change lies beyond the tolerance on the worse side; a figure needs --min-sessions sessions (default 30) on both sides for a verdict.

        Only pull refreshes are compared unless --trigger says otherwise. Exit codes: 0 no regression, 1 a figure regressed or nothing had enough sessions for a verdict (or, with --require-data, something had too few or none), 2 bad selectors, an empty cohort or several apps.

        Examples:
          pullparity compare --app padel --platform ios \\
              --baseline app_version=3.8.0 --candidate app_version=3.8.1
          pullparity compare --app padel --baseline platform=pwa \\
              --candidate platform=ios
          pullparity compare --app phlock --trigger all --format json \\
              --baseline until=2026-11-18 --candidate since=2026-11-18
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var tolerances: ToleranceOptions
    @OptionGroup var verdicts: VerdictOptions

    @Option(help: ArgumentHelp("The reference cohort, e.g. app_version=3.8.0.", valueName: "key=value,..."))
    var baseline: String

    @Option(help: ArgumentHelp("The cohort judged against it, e.g. app_version=3.8.1.", valueName: "key=value,..."))
    var candidate: String

    @Option(help: ArgumentHelp("Compare only this trigger, or all of them.", valueName: "trigger"))
    var trigger: TriggerChoice = .pull

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    enum TriggerChoice: String, ExpressibleByArgument, CaseIterable {
      case pull
      case tabReselect = "tab_reselect"
      case programmatic
      case all

      var trigger: RefreshTrigger? { RefreshTrigger(rawValue: rawValue) }
    }

    /// Bad selectors fail here, before the database is opened.
    func validate() throws {
      _ = try cohorts()
    }

    func run() throws {
      let (baselineCohort, candidateCohort) = try cohorts()
      let frontend = CompareFrontend(
        report: ReportFrontend(
          database: try database.open(readOnly: true), databaseName: database.path,
          tolerances: tolerances.tolerances(default: .change), policy: verdicts.policy))
      let comparison = try frontend.comparison(
        baselineCohort, candidateCohort, trigger: trigger.trigger, within: try filters.filter())
      try FileHandleOutput.standardOutput.write(
        try format.render(comparison) { CohortComparisonTextRenderer(style: $0).render(comparison) })
      if comparison.outcome != .passed { throw ExitCode(comparison.outcome.exitCode) }
    }

    private func cohorts() throws -> (baseline: Cohort, candidate: Cohort) {
      do {
        return try Cohort.pair(
          baseline: baseline, candidate: candidate, within: try filters.filter(),
          time: { (try? FilterOptions.time($0, "")) ?? nil })
      } catch let error as CohortSelectorError {
        // The selector names what was wrong: the usage text would only bury that.
        throw CommandError(error.description)
      }
    }
  }
}
