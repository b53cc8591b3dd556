import ArgumentParser
import PullParityIngest

extension PullParity {
  struct Derive: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Derive sessions and violations from raw event lines, as JSON lines (no database).",
      discussion: """
        Reads `source<TAB>offset<TAB>line<TAB>raw line` (decode's input; each raw line must be an event), each session's events together, and writes the `sessions` and `violations` rows of every session, then a `profiles` row per profile used. A session seen again after another is an error (exit 2). A context line (an empty source, then `<TAB><TAB>{"kind":"context",…}`) before a session's events hands it the data's horizon and the install's previous refresh end, which the rules that look past one session need. Formats: docs/distributed-formats.md.

        Example:
          sort-by-session < lines.tsv | pullparity derive
        """)

    @OptionGroup var profiles: ProfileOptions

    func run() throws {
      try DeriveFrontend(profiles: try profiles.catalog()).run()
    }
  }
}
