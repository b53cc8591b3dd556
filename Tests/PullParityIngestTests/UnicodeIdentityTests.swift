import Foundation
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// Ids are byte-exact: `"é"` as one code point and `"e"` + U+0301 are two ids, in a chunk, across
/// chunks and across runs alike (Swift's `String` equality would merge them; SQLite does not).
@Suite struct UnicodeIdentityTests {
  static let composed = "caf\u{E9}"
  static let decomposed = "cafe\u{301}"

  static func line(_ eventID: String, _ session: String, _ offset: Int, _ type: String) -> String {
    #"{"event_id":"\#(eventID)","session_id":"\#(session)","ts":\#(1_795_000_000_000 + offset),"#
      + #""platform":"ios","app":"padel","type":"\#(type)"}"#
  }

  /// Two sessions whose ids differ only in their Unicode form, interleaved; the hide without a
  /// refresh is a violation in each, so both sessions have violation rows.
  static let lines = [
    line("e1", composed, 0, "pull_start"), line("e2", decomposed, 10, "pull_start"),
    line("e3", composed, 20, "indicator_hidden"), line("e4", decomposed, 30, "indicator_hidden"),
  ]

  /// Each session's id bytes (hex), event count and violation count: what byte-exact identity gives.
  static func sessions(_ db: PullParityDatabase) throws -> [String] {
    try DatabaseDump.rows(
      db, table: "sessions s",
      columns:
        "hex(s.session_id) AS id, s.event_count AS events, "
        + "(SELECT count(*) FROM violations v WHERE v.session_id = s.session_id) AS violations",
      order: "id")
  }

  static let expected = [
    #"[id:"63616665CC81" events:2 violations:1]"#, #"[id:"636166C3A9" events:2 violations:1]"#,
  ]

  func ingest(_ path: String, _ db: PullParityDatabase, transactionLines: Int) throws -> IngestSummary {
    var options = IngestOptions(transactionLines: transactionLines, toolVersion: "test")
    options.maxChunkLines = transactionLines
    return try Ingestor(database: db, options: options).run(try InputCatalog.expand([path]))
  }

  @Test(arguments: [1, 2, 3, 4])
  func bothSpellingsStayApartInOneRunWhateverTheChunking(transactionLines: Int) throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("log.jsonl", Self.lines.joined(separator: "\n") + "\n")
    let db = try PullParityDatabase(path: dir.path("one.sqlite"))
    let summary = try ingest(path, db, transactionLines: transactionLines)
    #expect(summary.counts.eventsStored == 4)
    #expect(try Self.sessions(db) == Self.expected)
    let violations = try DatabaseDump.rows(
      db, table: "violations", columns: "count(*)", order: "1")
    #expect(violations == ["[count(*):2]"], "no violation row without its session")
  }

  /// The issue's case: four lines over three runs used to fail the third run with
  /// `UNIQUE constraint failed: violations.session_id, violations.ordinal`.
  @Test(arguments: [1, 2, 200_000])
  func bothSpellingsStayApartAcrossRuns(transactionLines: Int) throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("runs.sqlite"))
    let runs = [[Self.lines[0]], [Self.lines[1], Self.lines[2]], [Self.lines[3]]]
    for (index, run) in runs.enumerated() {
      let path = try dir.write("run\(index).jsonl", run.joined(separator: "\n") + "\n")
      let summary = try ingest(path, db, transactionLines: transactionLines)
      #expect(summary.counts.eventsStored == run.count)
    }
    #expect(try Self.sessions(db) == Self.expected)
  }

  @Test func eventIDsInBothSpellingsAreTwoEvents() throws {
    let dir = try TemporaryDirectory()
    let log = [
      Self.line(Self.composed, "s", 0, "pull_start"), Self.line(Self.decomposed, "s", 10, "pull_start"),
    ]
    let path = try dir.write("ids.jsonl", log.joined(separator: "\n") + "\n")
    let db = try PullParityDatabase(path: dir.path("ids.sqlite"))
    let summary = try ingest(path, db, transactionLines: 10)
    #expect(summary.counts.eventsStored == 2)
    #expect(summary.counts.conflicts == 0 && summary.counts.duplicates == 0)
    let ids = try DatabaseDump.rows(db, table: "events", columns: "hex(event_id)", order: "1")
    #expect(ids == [#"[hex(event_id):"63616665CC81"]"#, #"[hex(event_id):"636166C3A9"]"#])
  }
}
