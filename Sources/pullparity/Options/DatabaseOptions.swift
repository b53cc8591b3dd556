import ArgumentParser
import PullParityStore

struct DatabaseOptions: ParsableArguments {
  @Option(name: .customLong("db"), help: "The SQLite database file.")
  var path: String = "pullparity.sqlite"

  @Option(
    help: ArgumentHelp(
      "Seconds to wait for another process using the database (an ingest writing) before giving up.",
      valueName: "seconds"))
  var lockTimeout: Double = PullParityDatabase.defaultLockTimeout

  func validate() throws {
    guard lockTimeout >= 0, lockTimeout.isFinite else { throw ValidationError("--lock-timeout must be 0 or more") }
  }

  /// Opens the database; a note about how it was opened (read as it is on disk) goes to stderr.
  func open(readOnly: Bool = false) throws -> PullParityDatabase {
    let database = try PullParityDatabase(path: path, readOnly: readOnly, lockTimeout: lockTimeout)
    if let note = database.note { try FileHandleOutput.standardError.write(note + "\n") }
    return database
  }
}
