import ArgumentParser
import Foundation
import PullParityReport

extension PullParity {
  struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare platforms per app: percentiles, rates and a parity verdict per metric.",
      discussion: """
        Platforms are compared with the profile's reference platform (padel: pwa), else the first in name order. A metric is at parity when the difference is within its tolerance.

        Examples:
          pullparity report
          pullparity report --app ffci --by screen
          pullparity report --format json --output parity.json --check
          pullparity report --format markdown >> pr-comment.md
          pullparity report --format html --output parity.html
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var tolerances: ToleranceOptions

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

    @Flag(help: "Exit 1 when a compared metric is not at parity.")
    var check = false

    func run() throws {
      let filter = try filters.filter()
      let frontend = ReportFrontend(
        database: try database.open(readOnly: true), profiles: try profiles.catalog(),
        tolerances: tolerances.tolerances, dimension: by)
      let colored = format == .text && output == nil && FileHandleOutput.standardOutput.wantsColor
      let input = try frontend.input(filter: filter, format: format, style: TextStyle(colored: colored))
      let report = input.report
      let text = try format.render(input)
      if let output {
        try text.write(toFile: output, atomically: true, encoding: .utf8)
      } else {
        FileHandleOutput.standardOutput.write(text)
      }
      if check, !report.atParity { throw ExitCode(1) }
    }
  }
}

extension ReportFormat: ExpressibleByArgument {}
extension GroupDimension: ExpressibleByArgument {}
