import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

@testable import PullParityIngest

/// Inputs that used to lose data without a word: a cut gzip stream, a byte order mark, UTF-16.
@Suite struct InputEncodingTests {
  static func event(_ id: String) -> String {
    #"{"event_id":"\#(id)","session_id":"s","ts":1795000000000,"platform":"ios","app":"padel","type":"pull_start"}"#
  }

  func ingest(_ paths: [String], _ db: PullParityDatabase) throws -> IngestSummary {
    try Ingestor(database: db, options: IngestOptions(transactionLines: 500, toolVersion: "test"))
      .run(try InputCatalog.expand(paths))
  }

  @Test func aTruncatedGzipIsAnErrorItsCutLineIsNotQuarantinedAndTheFullFileCompletesIt() throws {
    let dir = try TemporaryDirectory()
    let full = try Data(contentsOf: RepositoryPaths.sampleEvents.appendingPathComponent("ffci-ios.jsonl.gz"))
    let cut = try dir.write("logs/ffci.jsonl.gz", full.prefix(full.count / 2))
    let after = try dir.write("logs/later.jsonl", Self.event("after") + "\n")
    let db = try PullParityDatabase(path: dir.path("cut.sqlite"))
    let summary = try ingest([cut, after], db)
    #expect(summary.inputErrors == [.truncated(path: cut)])
    #expect("\(summary.inputErrors[0])".contains("ffci.jsonl.gz: the gzip stream is truncated"))
    #expect(summary.counts.eventsStored > 100, "the lines before the cut are stored")
    let afterStored = try StoredEventsTable.read(db) {
      try Int.fetchOne($0, sql: "SELECT count(*) FROM events WHERE event_id = 'after'")
    }
    #expect(afterStored == 1, "the next input is still read")

    // The whole file arrives under the same name: the result is what it alone would give.
    try dir.write("logs/ffci.jsonl.gz", full)
    let again = try ingest([cut, after], db)
    #expect(again.inputErrors.isEmpty)
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest([cut, after], clean)
    #expect(try DatabaseDump.all(db) == DatabaseDump.all(clean))
  }

  @Test func aLeadingByteOrderMarkIsSkipped() throws {
    let dir = try TemporaryDirectory()
    var data = Data([0xEF, 0xBB, 0xBF])
    data.append(Data((Self.event("first") + "\n" + Self.event("second") + "\n").utf8))
    let path = try dir.write("bom.jsonl", data)
    let db = try PullParityDatabase(path: dir.path("bom.sqlite"))
    let summary = try ingest([path], db)
    #expect(summary.counts.eventsStored == 2)
    #expect(summary.counts.quarantined == 0)
    let offsets = try StoredEventsTable.read(db) {
      try Int.fetchAll($0, sql: "SELECT byte_offset FROM events ORDER BY line")
    }
    #expect(offsets == [3, 3 + Self.event("first").utf8.count + 1], "offsets count the mark")
  }

  static let utf16Cases: [(String, String.Encoding, Bool, String)] = [
    ("le-bom.jsonl", .utf16LittleEndian, true, "little-endian"),
    ("be-bom.jsonl", .utf16BigEndian, true, "big-endian"),
    ("le.jsonl", .utf16LittleEndian, false, "little-endian"),
    ("be.jsonl", .utf16BigEndian, false, "big-endian"),
  ]

  @Test(arguments: utf16Cases)
  func aUTF16FileIsNamedAndTheOthersAreStillRead(name: String, encoding: String.Encoding, bom: Bool, order: String)
    throws
  {
    let dir = try TemporaryDirectory()
    var data = Data()
    if bom { data.append(encoding == .utf16LittleEndian ? Data([0xFF, 0xFE]) : Data([0xFE, 0xFF])) }
    data.append((Self.event("wide") + "\n").data(using: encoding)!)
    let wide = try dir.write(name, data)
    let plain = try dir.write("plain.jsonl", Self.event("plain") + "\n")
    let db = try PullParityDatabase(path: dir.path("wide.sqlite"))
    let summary = try ingest([wide, plain], db)
    #expect(summary.inputErrors == [.utf16(path: wide, byteOrder: order)])
    #expect("\(summary.inputErrors[0])".contains("is UTF-16 (\(order)), not UTF-8"))
    #expect(summary.counts.eventsStored == 1)
    #expect(summary.counts.quarantined == 0)
  }

  /// A line over the limit is quarantined as `too_long` with its place and first bytes; the
  /// lines around it are stored. Just over the limit, and far over it (longer than the buffer).
  @Test func linesOverTheLimitAreQuarantinedAndTheOthersStored() throws {
    let dir = try TemporaryDirectory()
    let limit = 300
    func padded(_ id: String, to length: Int) -> String {
      let base = Self.event(id)
      let filler = String(repeating: "x", count: length - base.utf8.count - #","pad":"""#.utf8.count)
      return String(base.dropLast()) + #","pad":"\#(filler)"}"#
    }
    let lines = [
      Self.event("before"), padded("at-limit", to: limit), padded("over", to: limit + 1), Self.event("between"),
      padded("giant", to: 200_000), Self.event("after"),
    ]
    #expect(lines[1].utf8.count == limit && lines[2].utf8.count == limit + 1)
    let path = try dir.write("long.jsonl", lines.joined(separator: "\n") + "\n")
    let db = try PullParityDatabase(path: dir.path("long.sqlite"))
    var options = IngestOptions(transactionLines: 500, toolVersion: "test")
    options.maxLineBytes = limit
    let summary = try Ingestor(database: db, options: options).run(try InputCatalog.expand([path]))
    #expect(summary.counts.linesRead == 6)
    #expect(summary.counts.eventsStored == 4)
    #expect(summary.counts.quarantined == 2)
    try StoredEventsTable.read(db) { db in
      let ids = try String.fetchAll(db, sql: "SELECT event_id FROM events ORDER BY line")
      #expect(ids == ["before", "at-limit", "between", "after"])
      let rows = try Row.fetchAll(
        db, sql: "SELECT line, byte_offset, category, reason FROM quarantine ORDER BY line")
      let offset3 = lines[0..<2].map { $0.utf8.count + 1 }.reduce(0, +)
      let offset5 = lines[0..<4].map { $0.utf8.count + 1 }.reduce(0, +)
      #expect(rows.map { $0["line"] as Int } == [3, 5])
      #expect(rows.map { $0["byte_offset"] as Int } == [offset3, offset5])
      #expect(rows.map { $0["category"] as String } == ["too_long", "too_long"])
      #expect((rows[1]["reason"] as String).contains("200000 bytes, longer than the limit of 300"))
      let kept = try QuarantineReading.lines(db, QuarantineFilter()).sorted { $0.line < $1.line }
      #expect(kept.map(\.bytes.count) == [limit + 1, LineReader.keptPrefix])
      let afterOffset = try Int.fetchOne(db, sql: "SELECT byte_offset FROM events WHERE event_id = 'after'")
      #expect(afterOffset == lines[0..<5].map { $0.utf8.count + 1 }.reduce(0, +))
    }
  }

  /// The reader against a plain split of the same bytes, with lines of every length around the
  /// limit and the buffer: numbers, offsets, lengths and kept bytes.
  @Test(arguments: [1, 7, 42])
  func theReaderSplitsLikeASplitWhateverTheLengths(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let limit = 2000
    var lines: [[UInt8]] = []
    for _ in 0..<300 {
      let length = [0, 1, 1023, 1024, 1025, 1999, 2000, 2001, 2002, 4003, 9000][Int(random.next() % 11)]
      lines.append((0..<length).map { _ in UInt8(ascii: "a") + UInt8(random.next() % 26) })
    }
    let dir = try TemporaryDirectory()
    let path = try dir.write("lines.txt", Data(lines.joined(separator: [0x0A])))
    let reader = LineReader(
      source: try FileByteSource(path: path), name: path, maxLineBytes: limit, chunkSize: 1 + Int(random.next() % 5000))
    var index = 0
    var offset = 0
    try reader.forEachLine { line in
      let expected = lines[index]
      #expect(line.number == index + 1)
      #expect(line.byteOffset == offset)
      #expect(line.length == expected.count)
      #expect(line.isTooLong == (expected.count > limit))
      #expect(Array(line.bytes) == Array(expected.prefix(line.isTooLong ? LineReader.keptPrefix : expected.count)))
      offset += expected.count + 1
      index += 1
    }
    #expect(index == lines.count - (lines.last?.isEmpty == true ? 1 : 0))
  }
}
