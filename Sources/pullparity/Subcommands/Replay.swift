import ArgumentParser

extension PullParity {
  struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Rebuild sessions and violations from the stored raw events, in one transaction.",
      discussion: """
        Run after changing a profile or upgrading PullParity: every session is derived again with the current rules, and the sessions whose outcome or violations changed are listed. Sessions whose events `load --leave-events` left in a run directory are kept as loaded, and said so, unless --read-events reads their events back from there (the directory must be as it was loaded).

        Examples:
          pullparity replay --profiles my-profiles.json
          pullparity replay --read-events --db parity.sqlite
        """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var profiles: ProfileOptions

    @Flag(help: "Read the events `load --leave-events` left in run directories, and derive their sessions again.")
    var readEvents = false

    func run() throws {
      // Profiles first: a bad profile file must fail before the database is opened or waited for.
      let catalog = try profiles.catalog()
      let frontend = ReplayFrontend(database: try database.open(), profiles: catalog, readEvents: readEvents)
      try FileHandleOutput.standardOutput.write(frontend.describe(try frontend.run()))
    }
  }
}
