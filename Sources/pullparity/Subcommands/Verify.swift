import ArgumentParser
import PullParityReport
import PullParityStore

extension PullParity {
  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Read every stored block of raw events and quarantined lines, and list the damaged ones.",
      discussion: """
        Every block carries a checksum of its bytes (schema version 14), which every read compares: a damaged block fails the command that reads it (exit 2) instead of handing over altered lines. verify reads them all, one at a time: each damaged block is listed with its sessions and event times (raw events) or its files and lines (quarantine), and the exit status is 2 when any is damaged, 0 when none is. Blocks written before schema version 14 have no checksum: they are decompressed and their directory read, and counted as unchecked. `PRAGMA integrity_check` checks SQLite's pages, not what the blocks hold.

        Examples:
          pullparity verify
          pullparity verify --db archive/2026-11.sqlite
        """)

    @OptionGroup var database: DatabaseOptions

    func run() throws {
      let result = try BlockVerification.run(try database.open(readOnly: true))
      var text = ""
      for damage in result.damaged { text += damage.description + "\n\n" }
      text += "\(result.eventBlocks) raw event blocks, \(result.quarantineBlocks) quarantine blocks read: "
      text += result.isClean ? "no damage" : "\(result.damaged.count) damaged"
      if result.unchecked > 0 {
        text += "; \(result.unchecked) raw event blocks were written before schema version 14 and have no checksum"
      }
      // The report quotes session ids and file names from the database.
      try FileHandleOutput.standardOutput.write(TerminalText.escapedKeepingNewlines(text) + "\n")
      if !result.isClean { throw ExitCode(2) }
    }
  }
}
