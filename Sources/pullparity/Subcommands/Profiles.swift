import ArgumentParser
import PullParityCore
import PullParityReport

extension PullParity {
  struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the behaviour profiles in force, with every number.",
      discussion: """
        The JSON output is the profile file format: edit it and pass it back with --profiles. A file is {"profiles": [ … ]} or a bare array; it is strict JSON (no trailing commas or comments), an unknown key or value is an error naming the field. Only name and min_hold_ms are required; every other field has a default:

          version 1 · arm_threshold null (trust the client's armed) · resistance 1
          hide_slack_ms 250 · indicator null (not checked; a field left out of it is not checked)
          labels null (no copy checked) · reveal null (no waveform) · unit "pt" (or px, dp)
          cache_invalidation_screens [] · error_must_be_shown false
          reference_platform null (the first platform by name) · screens {} · budgets {} (0 %)

        indicator.kind is balls, waveform or native; budgets keys are rule names (flash, hold_compliance, …) with a percent.

        Examples:
          pullparity profiles
          pullparity profiles --format json > my-profiles.json
        """)

    @OptionGroup var profiles: ProfileOptions

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: TextOrJSON = .text

    func run() throws {
      let catalog = try profiles.catalog()
      try FileHandleOutput.standardOutput.write(
        try format.render(ProfileList(profiles: catalog.sortedByName)) { _ in
          ProfileTextRenderer().render(catalog.sortedByName)
        })
    }

    private struct ProfileList: Encodable {
      var profiles: [Profile]
    }
  }
}
