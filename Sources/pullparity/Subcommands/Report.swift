import ArgumentParser
import PullParityReport

extension PullParity {
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare platforms per app: percentiles, rates and a parity verdict per metric.",
      discussion: """
        Platforms are compared with the profile's reference platform (padel: pwa), else the first in name order. A distance or time is at parity when the p50s differ by no more than its tolerance; a rate fails only when the whole 95% confidence interval of the difference lies beyond the tolerance. Each platform is also judged on its own against every rule of its profile: the share of sessions that broke the rule against the rule's budget (0% unless the profile or --budget says otherwise). A group with one platform is judged against the profile alone.

        A figure needs --min-sessions sessions (default 30) for a verdict; with fewer it is "insufficient data", and a rule that sessions broke says so with example sessions ("2 stuck refreshes in 5 sessions: too few for a verdict"). With --check the command exits 1 when a figure fails, when nothing had enough sessions for a verdict, when no group had two platforms to compare (a group with one platform is never at parity), or (with --require-data) when any figure had too few sessions or none; it exits 2 when the filters match no session.

        One-platform gate: when every app in the selection has sessions of one platform only (an app shipped on one platform, or --platform X), --check judges each platform alone against its profile's rules and passes (exit 0) when they pass; a rule that fails still fails it, and nothing judged still does not pass. An app with two platforms that no group compares (--by app_version where each version is one platform's) still ends "No parity verdict". Sessions are judged with the profiles stored in the database, the ones they were derived with.

        Examples:
          pullparity report
          pullparity report --app ffci --by screen
          pullparity report --format json --output parity.json --check
          pullparity report --app ffci --platform ios --check
          pullparity report --format markdown >> pr-comment.md
          pullparity report --format html --output parity.html
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var tolerances: ToleranceOptions
    @OptionGroup var verdicts: VerdictOptions
    @OptionGroup var source: SessionSourceOptions

    @Option(
      help: ArgumentHelp(
        "Slice each app by: trigger, screen, app_version, or all (no slicing).", valueName: "dimension"))
    var by: GroupDimension = .trigger

    @Option(
      help: ArgumentHelp(
        "Output format: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"))
    var format: ReportFormat = .text

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(
      help:
        "Exit 1 when a figure fails, when nothing had enough sessions for a verdict, or when no two platforms were compared (unless every app has one platform here: then its rules alone decide)."
    )
    var check = false

    func run() throws {
      let filter = try filters.filter()
      let frontend = ReportFrontend(
        database: try database.open(readOnly: true), databaseName: database.path,
        tolerances: tolerances.tolerances(default: .default),
        policy: verdicts.policy, fromSessions: source.fromSessions)
      let colored = format == .text && output == nil && FileHandleOutput.standardOutput.wantsColor
      let input = try frontend.input(filter: filter, dimension: by, format: format, style: TextStyle(colored: colored))
      let report = input.report
      let text = try format.render(input)
      if let output {
        try OutputFile(path: output).write(text)
      } else {
        try FileHandleOutput.standardOutput.write(text)
      }
      if check, report.outcome != .passed { throw ExitCode(report.outcome.exitCode) }
    }
  }
}

extension ReportFormat: ExpressibleByArgument {}
extension GroupDimension: ExpressibleByArgument {}
