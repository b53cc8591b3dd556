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
      if sql {
        for migration in Schema.migrations {
          try FileHandleOutput.standardOutput.write("-- \(migration.name).sql\n\(migration.sql)\n")
        }
      } else {
        try FileHandleOutput.standardOutput.write(Schema.documentation)
      }
    }
  }
}
