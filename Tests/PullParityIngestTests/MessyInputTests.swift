import Foundation
import GRDB
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// Lines real logs contain: huge ones, CRLF ends, blanks, a cut-off last line, bytes that are
/// not UTF-8. None stops the ingest, none takes a good line with it, all are accounted for.
@Suite struct MessyInputTests {
  static func event(_ id: String, extra: String = "") -> String {
    #"{"event_id":"\#(id)","session_id":"s","ts":1795000000000,"platform":"ios","app":"padel","type":"pull_start"\#(extra)}"#
  }

  @Test func everyKindOfMessIsStoredOrQuarantinedWhole() throws {
    let dir = try TemporaryDirectory()
    let megabyte = String(repeating: "x", count: 1 << 20)
    var data = Data()
    func add(_ text: String, end: String = "\n") { data.append(Data((text + end).utf8)) }
    add(Self.event("e1"))  // 1
    add(Self.event("big", extra: #","note":"\#(megabyte)""#))  // 2: a valid 1 MB line
    add(Self.event("e2"), end: "\r\n")  // 3: CRLF
    add("")  // 4: blank
    add("\r", end: "\n")  // 5: blank (only \r)
    add("{\"event_id\":\"\(megabyte)")  // 6: a 1 MB line that is not JSON
    data.append(contentsOf: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D, 0x0A])  // 7: invalid UTF-8
    add(Self.event("e3"))  // 8
    add(#"{"event_id":"cut","session_id":"s","ts":17"#, end: "")  // 9: truncated, no newline
    let path = try dir.write("messy.jsonl", data)

    let db = try PullParityDatabase(path: dir.path("messy.sqlite"))
    let summary = try Ingestor(database: db, options: IngestOptions(toolVersion: "test")).run(
      try InputCatalog.expand([path]))
    #expect(summary.counts.linesRead == 9)
    #expect(summary.counts.blankLines == 2)
    #expect(summary.counts.eventsStored == 4)
    #expect(summary.counts.quarantined == 3)

    try StoredEventsTable.read(db) { db in
      let bigRaw = try String.fetchOne(db, sql: "SELECT raw FROM events WHERE event_id = 'big'")
      #expect(bigRaw == Self.event("big", extra: #","note":"\#(megabyte)""#))
      let crlf = try String.fetchOne(db, sql: "SELECT raw FROM events WHERE event_id = 'e2'")
      #expect(crlf == Self.event("e2"), "the line end is not part of the raw line")
      let rows = try QuarantineReading.lines(db, QuarantineFilter()).sorted { $0.line < $1.line }
      #expect(rows.map(\.line) == [6, 7, 9])
      #expect(rows.map(\.category) == ["not_json", "invalid_utf8", "not_json"])
      #expect(rows[0].bytes.count == (1 << 20) + 13, "a long bad line is kept whole")
      #expect(rows[1].isBlob, "bytes that are not UTF-8 are kept as they came")
      let offsets = try Int.fetchAll(db, sql: "SELECT byte_offset FROM quarantine ORDER BY line")
      #expect(offsets[0] == Self.offset(ofLine: 6, in: data))
      #expect(offsets[2] == Self.offset(ofLine: 9, in: data))
    }
  }

  static func offset(ofLine number: Int, in data: Data) -> Int {
    var line = 1
    for (index, byte) in data.enumerated() where byte == 0x0A {
      line += 1
      if line == number { return index + 1 }
    }
    return 0
  }

  @Test func aLockedDatabaseIsAClearErrorNotACorruptFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("locked.sqlite")
    let log = try dir.write("one.jsonl", Self.event("e1") + "\n")
    let holder = try DatabaseQueue(path: path)
    _ = try PullParityDatabase(path: path)  // create and migrate first
    // Another writer holds the lock for longer than --lock-timeout.
    let run = try holder.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      return try CommandRun.pullparity(["ingest", "--db", path, "--lock-timeout", "1", log])
    }
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("another process kept the database busy for 1 s"), "\(run.stderr)")
    #expect(run.stderr.contains(path))
    let again = try CommandRun.pullparity(["ingest", "--db", path, log])
    #expect(again.exitCode == 0)
  }
}
