import ArgumentParser
import PullParityCore
import PullParityReport

extension PullParity {
  struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the behaviour profiles in force, with every number.",
      discussion: """
        The JSON output is the profile file format: edit it and pass it back with --profiles.

        Examples:
          pullparity profiles
          pullparity profiles --format json > my-profiles.json
        """)

    @OptionGroup var profiles: ProfileOptions

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    func run() throws {
      let catalog = try profiles.catalog()
      switch format {
      case .json:
        try FileHandleOutput.standardOutput.write(try JSONRendering.render(ProfileList(profiles: catalog.sortedByName)))
      case .text:
        try FileHandleOutput.standardOutput.write(ProfileTextRenderer().render(catalog.sortedByName))
      }
    }

    private struct ProfileList: Encodable {
      var profiles: [Profile]
    }
  }
}
