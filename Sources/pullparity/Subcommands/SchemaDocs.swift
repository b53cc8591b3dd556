import ArgumentParser
import PullParitySchema

extension PullParity {
  struct SchemaDocs: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "schema",
      abstract: "Print the database documentation for dashboard authors (or the SQL).",
      discussion: """
        Examples:
          pullparity schema
          pullparity schema --sql
        """)

    @Flag(help: "Print the versioned SQL migrations instead.")
    var sql = false

    func run() throws {
      try FileHandleOutput.standardOutput.write(sql ? Schema.listing : Schema.documentation)
    }
  }
}
