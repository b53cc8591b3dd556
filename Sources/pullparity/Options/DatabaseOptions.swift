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

  static let maximumLockTimeout = 86_400.0

  @Option(
    help: ArgumentHelp(
      "SQLite's page cache, in MiB: most of the memory a command holds (default: \(PullParityDatabase.defaultCacheMiB.writer) to write, \(PullParityDatabase.defaultCacheMiB.reader) to read).",
      valueName: "MiB"))
  var cacheSize: Int?

  func validate() throws {
    // SQLite's busy handler takes whole milliseconds in an Int32: a day is far inside it, and
    // longer than any run should wait for another.
    guard (0...Self.maximumLockTimeout).contains(lockTimeout) else {
      throw ValidationError("--lock-timeout must be 0 to \(Int(Self.maximumLockTimeout)) (seconds)")
    }
    if let cacheSize, !(1...65_536).contains(cacheSize) {
      throw ValidationError("--cache-size must be 1 to 65536 (MiB)")
    }
  }

  /// Opens the database; a note about how it was opened (read as it is on disk) goes to stderr,
  /// and so does the progress of converting an older file (unless `quiet`).
  func open(readOnly: Bool = false, quiet: Bool = false) throws -> PullParityDatabase {
    var display = ConversionProgressDisplay(path: path, quiet: quiet)
    let database = try PullParityDatabase(
      path: path, readOnly: readOnly, lockTimeout: lockTimeout, cacheMiB: cacheSize,
      conversionProgress: { display.update($0) })
    if let note = database.note { try FileHandleOutput.standardError.write(note + "\n") }
    return database
  }
}
