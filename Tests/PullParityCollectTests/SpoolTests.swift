import Foundation
import PullParityCollect
import PullParityIngest
import PullParityTestSupport
import Testing

@Suite struct SpoolTests {
  static func contents(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test(arguments: [
    ("{\"a\":1}\n", "{\"a\":1}\n"),
    ("{\"a\":1}", "{\"a\":1}\n"),
    ("x\ny", "x\ny\n"),
    ("x\n\n", "x\n\n"),
    ("not json, kept as sent\r\n", "not json, kept as sent\r\n"),
  ])
  func aBodyIsKeptByteForByteWithANewlineAddedOnlyWhenItLacksOne(body: String, stored: String) async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"))
    try await spool.append(Array(body.utf8))
    try await spool.append(Array("next\n".utf8))
    #expect(try Self.contents(spool.directory.openFile) == stored + "next\n")
  }

  @Test func anEmptyBodyWritesNothing() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"))
    try await spool.append([])
    #expect(!FileManager.default.fileExists(atPath: spool.directory.openFile))
    #expect(await spool.counts().bodies == 0)
  }

  @Test func concurrentBodiesAreEachWholeAndAllAcknowledgedBySyncs() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"))
    let bodies = (0..<200).map { i in (0..<5).map { "{\"body\":\(i),\"line\":\($0)}\n" }.joined() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for body in bodies { group.addTask { try await spool.append(Array(body.utf8)) } }
      try await group.waitForAll()
    }
    let lines = try Self.contents(spool.directory.openFile).split(separator: "\n").map(String.init)
    let sent: [String] = bodies.flatMap { $0.split(separator: "\n").map(String.init) }
    #expect(Set(lines) == Set(sent))
    // No two bodies interleave: each body's five lines are adjacent.
    for start in stride(from: 0, to: lines.count, by: 5) {
      let prefix = lines[start].prefix { $0 != "," }
      #expect(lines[start..<start + 5].allSatisfy { $0.hasPrefix(prefix + ",") })
    }
    let counts = await spool.counts()
    #expect(counts.bodies == 200 && (1...200).contains(counts.syncs))
  }

  @Test func sizeRotationClosesFilesUnderNamesIngestTakesInOrderAndSkipsTheOpenOne() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"), limits: SpoolLimits(rotateBytes: 20))
    for i in 0..<7 { try await spool.append(Array("{\"n\":\(i)}\n".utf8)) }  // 8 bytes each
    let closed = try spool.directory.closedFiles()
    #expect(closed.count == 2)
    #expect(
      try closed.map(Self.contents) == ["{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n", "{\"n\":3}\n{\"n\":4}\n{\"n\":5}\n"])
    #expect(try Self.contents(spool.directory.openFile) == "{\"n\":6}\n")
    #expect(try InputCatalog.expand([spool.directory.path]).map(\.name) == closed)
    #expect(await spool.counts().filesClosed == 2)
  }

  @Test func ageRotationLeavesAYoungFileOpen() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"), limits: SpoolLimits(rotateSeconds: 3_600))
    try await spool.append(Array("a\n".utf8))
    try await spool.rotate(onlyWhenOld: true)
    #expect(try spool.directory.closedFiles().isEmpty)
    #expect(FileManager.default.fileExists(atPath: spool.directory.openFile))
  }

  @Test func ageRotationClosesAnOldFileAndNoEmptyOne() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"), limits: SpoolLimits(rotateSeconds: 0.01))
    try await spool.rotate(onlyWhenOld: true)
    #expect(try spool.directory.closedFiles().isEmpty)
    try await spool.append(Array("a\n".utf8))
    try await Task.sleep(for: .milliseconds(20))
    try await spool.rotate(onlyWhenOld: true)
    #expect(try spool.directory.closedFiles().map(Self.contents) == ["a\n"])
    #expect(!FileManager.default.fileExists(atPath: spool.directory.openFile))
  }

  @Test func closingKeepsTheFileAndTheNextBodyStartsANewOne() async throws {
    let directory = try TemporaryDirectory()
    let spool = try Spool(directory: directory.path("spool"))
    try await spool.append(Array("a\n".utf8))
    try await spool.close()
    try await spool.append(Array("b\n".utf8))
    try await spool.rotate()
    #expect(try spool.directory.closedFiles().map(Self.contents) == ["a\n", "b\n"])
  }

  @Test(arguments: [
    (Date(timeIntervalSince1970: 0), 1, "19700101T000000.000Z-000001.jsonl"),
    (Date(timeIntervalSince1970: 1_795_680_930.1234), 42, "20261126T081530.123Z-000042.jsonl"),
  ])
  func closedNamesAreTheUTCTimeAndASequence(date: Date, sequence: Int, name: String) {
    #expect(SpoolDirectory.closedName(at: date, sequence: sequence) == name)
  }

  @Test func closedNamesSortByTimeThenSequence() {
    let early = Date(timeIntervalSince1970: 1_795_680_930)
    let names = [
      SpoolDirectory.closedName(at: early, sequence: 9), SpoolDirectory.closedName(at: early, sequence: 10),
      SpoolDirectory.closedName(at: early.addingTimeInterval(0.001), sequence: 1),
      SpoolDirectory.closedName(at: early.addingTimeInterval(86_400 * 400), sequence: 2),
    ]
    #expect(names.sorted() == names)
  }
}
