import Foundation
import PullParityCollect
import PullParityTestSupport
import Testing

/// A collector killed mid-write leaves `.open.jsonl`; the next start closes it, cut back to its
/// last complete line (the torn body was never acknowledged).
@Suite struct SpoolRecoveryTests {
  @Test(
    arguments: [
      ("a\nb\n", "a\nb\n", 0),
      ("a\nb\n{\"torn", "a\nb\n", 6),
      ("{\"torn", nil, 6),
      ("", nil, 0),
    ] as [(String, String?, Int)])
  func aLeftoverIsCutToItsLastCompleteLineAndClosed(leftover: String, kept: String?, cut: Int) async throws {
    let directory = try TemporaryDirectory()
    try directory.write("spool/" + SpoolDirectory.openFileName, leftover)
    let spool = try Spool(directory: directory.path("spool"))
    let recovery = try #require(spool.recovery)
    #expect(recovery.cutBytes == cut)
    #expect(recovery.keptBytes == (kept?.utf8.count ?? 0))
    #expect(!FileManager.default.fileExists(atPath: spool.directory.openFile))
    let closed = try spool.directory.closedFiles()
    #expect(closed == (recovery.closedFile.map { [$0] } ?? []))
    #expect(try closed.map { try String(contentsOfFile: $0, encoding: .utf8) } == (kept.map { [$0] } ?? []))
    // The spool goes on in a new file after the recovered one.
    try await spool.append(Array("c\n".utf8))
    try await spool.close()
    #expect(try spool.directory.closedFiles().last.map { try String(contentsOfFile: $0, encoding: .utf8) } == "c\n")
  }

  @Test func aLeftoverLongerThanOneReadBlockIsCutAtItsLastNewline() async throws {
    let directory = try TemporaryDirectory()
    let line = String(repeating: "x", count: 100_000) + "\n"
    try directory.write("spool/" + SpoolDirectory.openFileName, line + String(repeating: "y", count: 150_000))
    let spool = try Spool(directory: directory.path("spool"))
    #expect(spool.recovery?.keptBytes == line.utf8.count)
    #expect(spool.recovery?.cutBytes == 150_000)
  }

  @Test func noLeftoverMeansNoRecovery() throws {
    let directory = try TemporaryDirectory()
    #expect(try Spool(directory: directory.path("spool")).recovery == nil)
  }
}
