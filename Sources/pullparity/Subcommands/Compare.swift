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

        Only pull refreshes are compared unless --trigger says otherwise. Exit codes: 0 no regression, 1 a metric regressed, 2 bad selectors, an empty cohort or several apps.

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

    /// Bad selectors fail here, before the database is opened, with the usage text.
    func validate() throws {
      _ = try cohorts()
    }

    func run() throws {
      let (baselineCohort, candidateCohort) = try cohorts()
      let queries = ReportQueries(try database.open(readOnly: true))
      let comparison = CohortComparison(
        baseline: baselineCohort, baselineSessions: try queries.sessions(baselineCohort.filter),
        candidate: candidateCohort, candidateSessions: try queries.sessions(candidateCohort.filter),
        trigger: trigger.trigger, tolerances: tolerances.tolerances)

      // A cohort that matched nothing is almost always a typo in a selector; passing it would
      // let CI go green on a comparison that never happened.
      for (cohort, count) in [
        (baselineCohort, comparison.baselineSessions), (candidateCohort, comparison.candidateSessions),
      ]
      where count == 0 {
        throw CompareError(
          description:
            "the \(cohort.name) cohort (\(cohort.selector)) has no \(triggerWords)sessions in \(database.path)")
      }
      if comparison.apps.count > 1 {
        throw CompareError(
          description:
            "the cohorts hold sessions of several apps (\(comparison.apps.joined(separator: ", "))); choose one with --app"
        )
      }

      switch format {
      case .text:
        let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
        FileHandleOutput.standardOutput.write(CohortComparisonTextRenderer(style: style).render(comparison))
      case .json:
        FileHandleOutput.standardOutput.write(try JSONRendering.render(comparison))
      }
      if comparison.regressed { throw ExitCode(1) }
    }

    /// The data cannot be compared: exit 2 like a usage error, but without the usage text,
    /// since the command line itself was fine.
    struct CompareError: Error, CustomStringConvertible {
      var description: String
    }

    private var triggerWords: String { trigger == .all ? "" : "\(trigger.rawValue) " }

    private func cohorts() throws -> (baseline: Cohort, candidate: Cohort) {
      do {
        return try Cohort.pair(
          baseline: baseline, candidate: candidate, within: try filters.filter(),
          time: { (try? FilterOptions.time($0, "")) ?? nil })
      } catch let error as CohortSelectorError {
        throw ValidationError(error.description)
      }
    }
  }
}
