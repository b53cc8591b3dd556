import ArgumentParser

extension PullParity {
  struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Rebuild sessions and violations from the stored raw events, in one transaction.",
      discussion: """
        Run after changing a profile or upgrading PullParity: every session is derived again with the current rules, and the sessions whose outcome or violations changed are listed.

        Example:
          pullparity replay --profiles my-profiles.json
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions

    func run() throws {
      // Profiles first: a bad profile file must fail before the database is opened or waited for.
      let catalog = try profiles.catalog()
      let frontend = ReplayFrontend(database: try database.open(), profiles: catalog)
      try FileHandleOutput.standardOutput.write(frontend.describe(try frontend.run()))
    }
  }
}
