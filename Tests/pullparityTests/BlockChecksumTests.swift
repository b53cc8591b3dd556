import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Contract v1.2 (schema version 14): every stored block, of raw events or of quarantined lines,
/// carries a checksum that every read compares, so a damaged block fails the command that reads
/// it (exit 2, naming the block) instead of handing over altered lines; and the quarantine is
/// kept compressed, a conflicting line costing at most twice a stored event.
@Suite struct BlockChecksumTests {
  static let inputs = [
    "padel-ios-1.jsonl", "padel-ios-2.jsonl", "padel-pwa.jsonl", "phlock-ios.jsonl", "bad-lines.jsonl",
  ]
  .map { RepositoryPaths.sampleEvents.appendingPathComponent($0).path }

  static func ingest(_ inputs: [String], _ db: String) throws {
    let run = try CommandRun.pullparity(["ingest", "--db", db, "--quiet"] + inputs)
    #expect(run.exitCode == 0, "\(run.stderr)")
  }

  struct Flip: CustomTestStringConvertible, Sendable {
    var table: String
    /// Where in the blob: a fraction of its length (0: its first byte, the zstd magic number).
    var at: Double
    var bit: UInt8
    var testDescription: String { "\(table) at \(at), bit \(bit)" }
  }

  static let flips: [Flip] = [
    Flip(table: "event_blocks", at: 0, bit: 0), Flip(table: "event_blocks", at: 0.001, bit: 3),
    Flip(table: "event_blocks", at: 0.5, bit: 5), Flip(table: "event_blocks", at: 1, bit: 7),
    Flip(table: "quarantine_blocks", at: 0, bit: 1), Flip(table: "quarantine_blocks", at: 0.5, bit: 4),
    Flip(table: "quarantine_blocks", at: 1, bit: 6),
  ]

  /// Flips one bit of the first block of `table`; returns the block's id.
  static func flip(_ flip: Flip, in db: String) throws -> Int64 {
    let queue = try DatabaseQueue(path: db)
    return try queue.write { db in
      let row = try #require(
        try Row.fetchOne(db, sql: "SELECT block_id, data FROM \(flip.table) ORDER BY block_id LIMIT 1"))
      var data: [UInt8] = Array(row["data"] as Data)
      let index = min(data.count - 1, Int(Double(data.count) * flip.at))
      data[index] ^= 1 << flip.bit
      try db.execute(
        sql: "UPDATE \(flip.table) SET data = ? WHERE block_id = ?", arguments: [Data(data), row["block_id"] as Int64])
      return row["block_id"]
    }
  }

  @Test(arguments: flips)
  func aFlippedBitFailsEveryCommandThatReadsTheBlock(_ flip: Flip) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("damaged.sqlite")
    try Self.ingest(Self.inputs, db)
    let block = try Self.flip(flip, in: db)
    let name =
      flip.table == "event_blocks" ? "raw event block \(block) is damaged" : "quarantine block \(block) is damaged"
    var commands = [["verify", "--db", db]]
    if flip.table == "event_blocks" {
      let session = try DatabaseQueue(path: db).read { db in
        try String.fetchOne(
          db,
          sql: """
            SELECT s.session_id FROM session_blocks b JOIN sessions s USING (session_ref)
            WHERE b.block_id = ? ORDER BY s.session_ref LIMIT 1
            """, arguments: [block])
      }
      commands += [["export", "--db", db], ["session", "--db", db, try #require(session)], ["replay", "--db", db]]
    } else {
      commands += [["quarantine", "--db", db, "--format", "json", "--limit", "0"]]
    }
    for arguments in commands {
      let run = try CommandRun.pullparity(arguments)
      #expect(run.exitCode == 2, "\(arguments[0]): \(run.stderr)")
      #expect((run.stdout + run.stderr).contains(name), "\(arguments[0]) names the block: \(run.stderr)")
      if flip.table == "event_blocks", arguments[0] != "replay" {
        #expect((run.stdout + run.stderr).contains("event times"), "\(arguments[0]) says its time range")
      }
    }
    // Nothing of the damaged block reached standard output as data.
    if flip.table == "event_blocks" {
      let export = try CommandRun.pullparity(["export", "--db", db])
      let stored = try DatabaseQueue(path: db).read { db in
        try Int.fetchOne(db, sql: "SELECT count(*) FROM event_keys WHERE block_id >= ?", arguments: [block])
      }
      #expect(export.stdout.split(separator: "\n").count < (stored ?? 0))
    }
  }

  @Test func anUndamagedFileVerifiesClean() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("clean.sqlite")
    try Self.ingest(Self.inputs, db)
    let verify = try CommandRun.pullparity(["verify", "--db", db])
    #expect(verify.exitCode == 0, "\(verify.stderr)")
    #expect(verify.stdout.contains("no damage"))
    #expect(!verify.stdout.contains("no checksum"))
    let quarantine = try CommandRun.pullparity(["quarantine", "--db", db, "--format", "json", "--limit", "0"])
    #expect(quarantine.exitCode == 0, "\(quarantine.stderr)")
  }

  /// `raw` shows U+FFFD where a line is not UTF-8; `raw_hex` gives its exact bytes back, and a
  /// line that is UTF-8 has none.
  @Test func theQuarantineListsALineThatIsNotUTF8ByItsBytes() throws {
    let dir = try TemporaryDirectory()
    let input = dir.path("odd.jsonl")
    try Data(#"{"not json"#.utf8 + [0x0A, 0xFF, 0xFE, 0x00, 0x20, 0x7B, 0x0A]).write(to: URL(fileURLWithPath: input))
    let db = dir.path("odd.sqlite")
    _ = try CommandRun.pullparity(["ingest", "--db", db, "--quiet", input])
    let listed = try CommandRun.pullparity(["quarantine", "--db", db, "--format", "json"])
    #expect(listed.exitCode == 0, "\(listed.stderr)")
    let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
    #expect(rows.map { $0["raw"] as? String } == [#"{"not json"#, "\u{FFFD}\u{FFFD}\u{0} {"])
    #expect(rows.map { $0["raw_hex"] as? String } == [nil, "fffe00207b"])
  }

  /// Blocks written before schema version 14 have no checksum: read as they are, with one
  /// warning per command.
  @Test func blocksWithoutAChecksumAreReadWithOneWarning() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("old.sqlite")
    try Self.ingest(Self.inputs, db)
    let before = try CommandRun.pullparity(["export", "--db", db])
    try DatabaseQueue(path: db).write { try $0.execute(sql: "UPDATE event_blocks SET checksum = NULL") }
    let export = try CommandRun.pullparity(["export", "--db", db])
    #expect(export.exitCode == 0, "\(export.stderr)")
    #expect(export.stdout == before.stdout)
    #expect(export.stderr.components(separatedBy: "without a checksum").count == 2, "\(export.stderr)")
    let verify = try CommandRun.pullparity(["verify", "--db", db])
    #expect(verify.exitCode == 0)
    #expect(verify.stdout.contains("have no checksum"))
  }

  /// The quarantine gives back every line's bytes from its blocks, and a client that resends
  /// every event edited costs less than twice a stored event per line.
  @Test func aConflictHeavyLogStaysUnderTwiceACleanOnesBytesPerLine() throws {
    let dir = try TemporaryDirectory()
    var clean: [Substring] = []
    for input in Self.inputs.dropLast() {
      clean += try String(contentsOfFile: input, encoding: .utf8).split(whereSeparator: \.isNewline)
    }
    // The same events again, each with a field more: every one a conflict.
    let edited = clean.map { $0.dropLast() + #","resent":1}"# }
    let cleanLog = try dir.write("clean.jsonl", clean.joined(separator: "\n") + "\n")
    let conflictLog = try dir.write("conflicts.jsonl", (clean + edited).joined(separator: "\n") + "\n")
    func size(_ db: String) throws -> Double {
      _ = try CommandRun.pullparity(["verify", "--db", db])  // a last reader checkpoints the WAL
      let files = [db, db + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
      return try files.map { Double(try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0) }
        .reduce(0, +)
    }
    let cleanDB = dir.path("clean.sqlite")
    let conflictDB = dir.path("conflicts.sqlite")
    try Self.ingest([cleanLog], cleanDB)
    try Self.ingest([conflictLog], conflictDB)
    let perEvent = try size(cleanDB) / Double(clean.count)
    let perConflict = (try size(conflictDB) - size(cleanDB)) / Double(edited.count)
    #expect(perConflict < 2 * perEvent, "a conflict costs \(perConflict) bytes, a stored event \(perEvent)")
    let listed = try CommandRun.pullparity(["quarantine", "--db", conflictDB, "--format", "json", "--limit", "0"])
    #expect(listed.exitCode == 0, "\(listed.stderr)")
    let (lines, conflicts) = try PullParityDatabase(path: conflictDB, readOnly: true).read {
      (
        try QuarantineReading.lines($0, QuarantineFilter(category: "conflict")),
        try Int.fetchOne($0, sql: "SELECT sum(conflicts) FROM ingest_runs") ?? 0
      )
    }
    // Each conflict's exact bytes, as the ledger counts them (the sample has a conflict of its own).
    let expected = Set((clean + edited).map(String.init))
    #expect(lines.count == conflicts && conflicts > edited.count * 9 / 10)
    let strange = lines.map { String(decoding: $0.bytes, as: UTF8.self) }.filter { !expected.contains($0) }
    #expect(strange.isEmpty, "\(strange.prefix(2).map { $0.debugDescription })")
    #expect(lines.allSatisfy { $0.reason.contains($0.eventID ?? "?") && $0.category == "conflict" })
  }
}
