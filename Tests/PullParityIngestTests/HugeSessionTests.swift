import Foundation
import PullParityCore
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// One session id for every event (a client sending `"undefined"`): the session spans every
/// chunk and transaction of the run. It is read back and derived once per transaction, not once
/// per chunk, and comes out as a clean single-transaction ingest derives it.
@Suite struct HugeSessionTests {
  static func log(events: Int) -> String {
    (0..<events).map { i in
      let type = i % 100 == 0 ? #""type":"pull_start""# : #""type":"pull_move","distance":\#(i % 100)"#
      return #"{"event_id":"e\#(i)","session_id":"undefined","ts":\#(1_795_000_000_000 + i),"#
        + #""platform":"ios","app":"padel",\#(type)}"#
    }.joined(separator: "\n") + "\n"
  }

  func ingest(
    _ path: String, _ db: PullParityDatabase, transactionLines: Int, chunkLines: Int
  ) throws -> IngestSummary {
    var options = IngestOptions(transactionLines: transactionLines, toolVersion: "test")
    options.maxChunkLines = chunkLines
    return try Ingestor(database: db, options: options).run(try InputCatalog.expand([path]))
  }

  @Test func aSessionInEveryChunkIsReadBackOncePerTransaction() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("undefined.jsonl", Self.log(events: 3_000))
    let db = try PullParityDatabase(path: dir.path("huge.sqlite"))
    // 30 chunks of 100 lines in 3 transactions of 1,000.
    let summary = try ingest(path, db, transactionLines: 1_000, chunkLines: 100)
    #expect(summary.counts.eventsStored == 3_000)
    #expect(summary.counts.sessionsDerived == 3)
    // The first transaction derives the session ahead from its first chunks (while the reader
    // can carry its events: two chunks' worth) and reads it back once at its end; the two
    // others once each. Per chunk it was 29 reads.
    #expect(summary.stageTimes.sessionsReadBack == 3)

    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest(path, clean, transactionLines: 10_000, chunkLines: 10_000)
    let derived: Set<String> = ["sessions", "violations"]
    #expect(try DatabaseDump.all(db, only: derived) == DatabaseDump.all(clean, only: derived))
    let counts = try DatabaseDump.rows(db, table: "sessions", columns: "event_count", order: "session_id")
    #expect(counts == ["[event_count:3000]"])
  }
}
