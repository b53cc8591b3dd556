import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// One bad line is one quarantine row, however the file holding it is named or moved about,
/// and only the run that first quarantined it counts it as quarantined.
@Suite struct QuarantineIdentityTests {
  static let badLine = #"{"event_id": "x-1", "type": "pull_start", "ts": "yesterday"#

  /// Ways to read the same bad line again after ingesting `dir/logs/bad.jsonl` by absolute path.
  enum ReadAgain: String, CaseIterable {
    case relativePath, lineAddedBefore, copyInAnotherFile, twiceInOneFile

    /// Prepares the input and returns the path to ingest, relative to `dir`.
    func prepare(_ dir: TemporaryDirectory) throws -> String {
      switch self {
      case .relativePath: return "logs/bad.jsonl"
      case .lineAddedBefore:
        try dir.write("logs/bad.jsonl", "\n" + QuarantineIdentityTests.badLine + "\n")
        return "logs/bad.jsonl"
      case .copyInAnotherFile:
        try dir.write("logs/copy.jsonl", QuarantineIdentityTests.badLine + "\n")
        return "logs/copy.jsonl"
      case .twiceInOneFile:
        try dir.write(
          "logs/twice.jsonl", QuarantineIdentityTests.badLine + "\n\n" + QuarantineIdentityTests.badLine + "\n")
        return "logs/twice.jsonl"
      }
    }
  }

  @Test(arguments: ReadAgain.allCases)
  func oneBadLineIsOneRow(_ again: ReadAgain) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("q.sqlite")
    let first = try dir.write("logs/bad.jsonl", Self.badLine + "\n")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, first]).exitCode == 0)

    let path = try again.prepare(dir)
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, path], currentDirectory: dir.url)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("already quarantined  "), "\(run.stdout)")

    let database = try PullParityDatabase(path: db)
    #expect(try DatabaseDump.count(database, "quarantine") == 1)
    let runs = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT quarantined, already_quarantined FROM ingest_runs ORDER BY run_id")
        .map { [$0["quarantined"] as Int, $0["already_quarantined"] as Int] }
    }
    let repeats = again == .twiceInOneFile ? 2 : 1
    #expect(runs == [[1, 0], [0, repeats]])
  }
}
