import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// A session whose stored raw lines no longer decode (rules changed, the file was edited) is
/// a clear error for `session`, never a crash, and the other commands carry on.
@Suite struct StoredSessionTests {
  static let session = "0c20f46e-c1f4-45da-a54f-c5ba7ac6bc52"

  static func databaseWithUndecodableSession(in dir: TemporaryDirectory) throws -> String {
    let db = dir.path("edited.sqlite")
    try FileManager.default.copyItem(atPath: SampleDatabase.path, toPath: db)
    try StoredEventsTable.replaceLines(ofSession: session, with: #"{"event_id": 1}"#, in: PullParityDatabase(path: db))
    return db
  }

  @Test func sessionSaysItsLinesNoLongerDecode() throws {
    let dir = try TemporaryDirectory()
    let db = try Self.databaseWithUndecodableSession(in: dir)
    let run = try CommandRun.pullparity(["session", "--db", db, "0c20f46e"])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(
      run.stderr.hasPrefix(
        "Error: session \(Self.session): none of its 30 stored lines decodes with the current rules (first: "))
    #expect(run.stderr.contains("wrong_type: "))
    #expect(run.stderr.hasSuffix("; `pullparity replay` derives the sessions again from the lines that do\n"))
  }

  @Test func reportsAndReplayCarryOn() throws {
    let dir = try TemporaryDirectory()
    let db = try Self.databaseWithUndecodableSession(in: dir)
    let html = try CommandRun.pullparity(["report", "--db", db, "--format", "html", "--app", "padel"])
    #expect(html.exitCode == 0, "\(html.stderr)")
    let replay = try CommandRun.pullparity(["replay", "--db", db])
    #expect(replay.exitCode == 0, "\(replay.stderr)")
    #expect(replay.stdout.contains("gone: 1"), "\(replay.stdout)")
    let after = try CommandRun.pullparity(["session", "--db", db, "0c20f46e"])
    #expect(after.exitCode == 2)
    #expect(after.stderr == "Error: no session \"0c20f46e\" in \(db)\n")
  }
}
