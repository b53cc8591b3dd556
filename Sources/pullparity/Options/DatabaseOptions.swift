import ArgumentParser
import PullParityStore

struct DatabaseOptions: ParsableArguments {
  @Option(name: .customLong("db"), help: "The SQLite database file.")
  var path: String = "pullparity.sqlite"

  func open(readOnly: Bool = false) throws -> PullParityDatabase {
    try PullParityDatabase(path: path, readOnly: readOnly)
  }
}
