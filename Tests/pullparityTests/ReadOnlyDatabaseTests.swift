import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Reading a database this user may not write: an archive in a read-only directory, another
/// user's file in a shared one. Permissions block nothing for root, which the tests run as, so
/// the commands run as other users through `setpriv` (uid 65534 is `nobody`; 4242 stands for
/// the owner of a shared file), on copies in temporary directories.
@Suite(.serialized) struct ReadOnlyDatabaseTests {
  static let nobody = 65534
  static let owner = 4242
  static let isRoot = getuid() == 0

  /// `pullparity` as `nobody` when root; else as this user, whom the permissions block.
  static func asNobody(_ arguments: [String], environment: [String: String]) throws -> CommandRun {
    isRoot
      ? try CommandRun.pullparity(asUser: nobody, arguments, environment: environment)
      : try CommandRun.pullparity(arguments, environment: environment)
  }

  /// A sample database in `dir/archive`, with no -wal/-shm files left.
  static func archivedDatabase(in dir: TemporaryDirectory) throws -> String {
    let db = dir.path("archive/parity.sqlite")
    try FileManager.default.createDirectory(atPath: dir.path("archive"), withIntermediateDirectories: true)
    #expect(
      try CommandRun.pullparity(["ingest", "--quiet", "--db", db, RepositoryPaths.sampleEvents.path]).exitCode == 0)
    try FileManager.default.removeItem(atPath: db + "-lock")
    return db
  }

  static func chmod(_ path: String, _ mode: Int) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  static func listing(_ dir: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
  }

  static func firstSessionID(_ db: String) throws -> String {
    try PullParityDatabase(path: db, readOnly: true).read { db in
      try String.fetchOne(db, sql: "SELECT session_id FROM sessions ORDER BY session_id LIMIT 1")!
    }
  }

  /// report, qa and session on a database in a directory nobody may write: they read it as it
  /// is on disk, say so on stderr, print what the owner prints, and create no file.
  @Test(arguments: [["report"], ["qa"], ["session"]])
  func anArchiveInAReadOnlyDirectoryCanBeRead(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let db = try Self.archivedDatabase(in: dir)
    let arguments = [command[0], "--db", db] + (command[0] == "session" ? [try Self.firstSessionID(db)] : [])
    // Reports say when they were made: fix the clock so that the two runs print the same.
    let clock = ["SOURCE_DATE_EPOCH": "1700000000"]
    let asOwner = try CommandRun.pullparity(arguments, environment: clock)
    // The owner's read left SQLite's -wal/-shm files: an archive has only the database.
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
    try Self.chmod(dir.url.path, 0o755)
    try Self.chmod(dir.path("archive"), 0o555)
    defer { try? Self.chmod(dir.path("archive"), 0o755) }  // so that the directory can be removed
    try Self.chmod(db, 0o444)
    let before = try Self.listing(dir.path("archive"))

    let reader = try Self.asNobody(arguments, environment: clock)
    #expect(reader.exitCode == asOwner.exitCode, "\(reader.stderr)")
    #expect(reader.stdout == asOwner.stdout)
    #expect(reader.stderr.contains("note: \(db) is read as it is on disk (immutable)"), "\(reader.stderr)")
    #expect(try Self.listing(dir.path("archive")) == before)
  }

  /// In a shared directory (mode 1777, like /tmp), another user's report leaves no -wal/-shm
  /// files of its own, so the owner's next ingest still works.
  @Test(.enabled(if: isRoot, "two users are needed: only root can run commands as others"))
  func anotherUsersReportDoesNotBlockTheOwner() throws {
    let dir = try TemporaryDirectory()
    let shared = dir.path("shared")
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try Self.chmod(dir.url.path, 0o755)
    try Self.chmod(shared, 0o1777)
    let db = shared + "/parity.sqlite"
    let logs = RepositoryPaths.sampleEvents
    let ingest = { (file: String) in
      try CommandRun.pullparity(
        asUser: Self.owner, ["ingest", "--quiet", "--db", db, logs.appendingPathComponent(file).path])
    }
    let first = try ingest("padel-ios-1.jsonl")
    #expect(first.exitCode == 0, "\(first.stderr)")
    let before = try Self.listing(shared)

    let report = try CommandRun.pullparity(asUser: Self.nobody, ["report", "--db", db])
    #expect(report.exitCode == 0, "\(report.stderr)")
    #expect(report.stderr.contains("(immutable)"), "\(report.stderr)")
    #expect(try Self.listing(shared) == before)

    let second = try ingest("padel-ios-2.jsonl")
    #expect(second.exitCode == 0, "\(second.stderr)")
  }
}
