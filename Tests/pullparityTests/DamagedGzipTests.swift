import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// A damaged gzip input costs only what it damaged: the lines inflated before the damage are
/// stored, the other inputs are all ingested, the summary is printed, and the run ends with
/// exit 2 naming the file and the damage.
@Suite struct DamagedGzipTests {
  enum Damage: String, CaseIterable, CustomTestStringConvertible {
    case badCRC, badLength, garbageAfterMember, truncated

    var testDescription: String { rawValue }

    func apply(_ gzip: Data) -> Data {
      var bytes = [UInt8](gzip)
      switch self {
      // The trailer is the CRC-32 then the length, 4 bytes each, little-endian.
      case .badCRC: bytes[bytes.count - 8] ^= 0xFF
      case .badLength: bytes[bytes.count - 2] ^= 0xFF
      case .garbageAfterMember: bytes += Array("not gzip at all\n".utf8)
      case .truncated: bytes = Array(bytes.prefix(bytes.count / 2))
      }
      return Data(bytes)
    }

    /// What stderr must say: after the file's name, and further on (zlib's word for the damage).
    var message: (opening: String, detail: String) {
      switch self {
      case .badCRC: ("not valid gzip data, damaged near compressed byte ", "(incorrect data check)")
      case .badLength: ("not valid gzip data, damaged near compressed byte ", "(incorrect length check)")
      case .garbageAfterMember: ("the bytes from compressed byte 97327 on are not gzip data", "every line before")
      case .truncated: ("the gzip stream is truncated", "the lines before the cut were read")
      }
    }

    /// Every line precedes the damage unless the stream was cut.
    var keepsEveryLine: Bool { self != .truncated }
  }

  static let sample = RepositoryPaths.sampleEvents

  /// Events stored per file name (the last path component).
  static func eventsByFile(_ path: String) throws -> [String: Int] {
    let db = try PullParityDatabase(path: path)
    let rows = try StoredEventsTable.read(db) { db in
      try Row.fetchAll(
        db, sql: "SELECT s.name, count(*) AS n FROM events e JOIN sources s USING (source_id) GROUP BY s.name")
    }
    return try Dictionary(uniquePairs: rows.map { (URL(fileURLWithPath: $0["name"]).lastPathComponent, $0["n"]) })
  }

  /// The same files whole, ingested the same way: what each file alone stores.
  static func cleanCounts(_ dir: TemporaryDirectory) throws -> [String: Int] {
    let gzip = try Data(contentsOf: sample.appendingPathComponent("ffci-ios.jsonl.gz"))
    try dir.write("clean/b-ffci.jsonl.gz", gzip)
    try dir.write("clean/a-padel.jsonl", try Data(contentsOf: sample.appendingPathComponent("padel-pwa.jsonl")))
    try dir.write("clean/c-phlock.jsonl", try Data(contentsOf: sample.appendingPathComponent("phlock-ios.jsonl")))
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", dir.path("clean.sqlite"), dir.path("clean")])
    #expect(run.exitCode == 0, "\(run.stderr)")
    return try eventsByFile(dir.path("clean.sqlite"))
  }

  @Test(arguments: Damage.allCases)
  func theDamagedFileIsNamedItsReadableLinesAndTheOtherInputsAreStored(_ damage: Damage) throws {
    let dir = try TemporaryDirectory()
    let clean = try Self.cleanCounts(dir)
    let gzip = try Data(contentsOf: Self.sample.appendingPathComponent("ffci-ios.jsonl.gz"))
    let damaged = try dir.write("logs/b-ffci.jsonl.gz", damage.apply(gzip))
    try dir.write("logs/a-padel.jsonl", try Data(contentsOf: Self.sample.appendingPathComponent("padel-pwa.jsonl")))
    try dir.write("logs/c-phlock.jsonl", try Data(contentsOf: Self.sample.appendingPathComponent("phlock-ios.jsonl")))
    let db = dir.path("db.sqlite")
    // Small transactions: the damage comes after some have been committed and before others.
    let run = try CommandRun.pullparity([
      "ingest", "--quiet", "--transaction-lines", "100", "--db", db, dir.path("logs"),
    ])
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(run.stderr.contains("Error: \(damaged): \(damage.message.opening)"), "\(run.stderr)")
    #expect(run.stderr.contains(damage.message.detail), "\(run.stderr)")
    #expect(run.stdout.contains("events stored"), "the summary is printed: \(run.stdout)")
    let stored = try Self.eventsByFile(db)
    #expect(stored["a-padel.jsonl"] == clean["a-padel.jsonl"], "the input before the damaged one")
    #expect(stored["c-phlock.jsonl"] == clean["c-phlock.jsonl"], "the input after it")
    let ffci = stored["b-ffci.jsonl.gz"] ?? 0
    if damage.keepsEveryLine {
      #expect(ffci == clean["b-ffci.jsonl.gz"], "every line came before the damage")
    } else {
      #expect(ffci > 100 && ffci < clean["b-ffci.jsonl.gz"]!, "the lines before the cut: \(ffci)")
    }
    let status = try PullParityDatabase(path: db).read {
      try String.fetchOne($0, sql: "SELECT status FROM ingest_runs ORDER BY run_id DESC LIMIT 1")
    }
    #expect(status == "completed")
  }

  /// Garbage that starts like gzip, on standard input: not a cut stream, and not a crash.
  @Test func gzipGarbageOnStandardInputIsCalledInvalidNotTruncated() throws {
    let dir = try TemporaryDirectory()
    let garbage = Data([0x1F, 0x8B] + Array("this is not deflate data\n".utf8))
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", dir.path("db.sqlite"), "-"], stdin: garbage)
    #expect(run.exitCode == 2, "\(run.stderr)")
    #expect(run.stderr.contains("Error: -: not valid gzip data, damaged near compressed byte"), "\(run.stderr)")
    #expect(run.stderr.contains("unknown compression method"), "\(run.stderr)")
    #expect(!run.stderr.contains("truncated"), "\(run.stderr)")
  }

  /// Concatenated gzip files are one gzip file; plain text on standard input passes through.
  @Test func concatenatedMembersAndPlainStandardInputAreReadWhole() throws {
    let dir = try TemporaryDirectory()
    let clean = try Self.cleanCounts(dir)
    let gzip = try Data(contentsOf: Self.sample.appendingPathComponent("ffci-ios.jsonl.gz"))
    let twice = try dir.write("twice.jsonl.gz", gzip + gzip)
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", dir.path("twice.sqlite"), twice])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("duplicates skipped  2,891"), "the second member repeats the first: \(run.stdout)")
    #expect(try Self.eventsByFile(dir.path("twice.sqlite"))["twice.jsonl.gz"] == clean["b-ffci.jsonl.gz"])

    let plain = try Data(contentsOf: Self.sample.appendingPathComponent("padel-pwa.jsonl"))
    let piped = try CommandRun.pullparity(["ingest", "--quiet", "--db", dir.path("plain.sqlite"), "-"], stdin: plain)
    #expect(piped.exitCode == 0, "\(piped.stderr)")
    #expect(try Self.eventsByFile(dir.path("plain.sqlite"))["-"] == clean["a-padel.jsonl"])
  }
}
