import Foundation
import PullParityCore
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// The raw log is the truth: the same events, ingested in any pieces, order or number of
/// times, give the same database.
@Suite struct IdempotentIngestTests {
  let samples = RepositoryPaths.sampleEvents

  func ingest(
    _ paths: [String], _ db: PullParityDatabase, transactionLines: Int = 50_000, keyEpochCapacity: Int? = nil
  ) throws -> IngestSummary {
    var options = IngestOptions(transactionLines: transactionLines, toolVersion: "test")
    options.keyEpochCapacity = keyEpochCapacity
    return try Ingestor(database: db, options: options).run(try InputCatalog.expand(paths))
  }

  @Test func ingestingTwiceChangesNothing() throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("twice.sqlite"))
    let first = try ingest([samples.path], db)
    let before = try DatabaseDump.all(db)
    let second = try ingest([samples.path], db)
    #expect(try DatabaseDump.all(db) == before)
    #expect(second.counts.eventsStored == 0)
    #expect(second.counts.duplicates == first.counts.eventsStored + first.counts.duplicates)
    // Bad lines are rejected again, but recorded and counted as quarantined once.
    #expect(second.counts.quarantined == 0 && second.counts.conflicts == 0)
    #expect(second.counts.alreadyQuarantined == first.counts.quarantined + first.counts.conflicts)
    #expect(try DatabaseDump.count(db, "ingest_runs") == 2)
  }

  /// One file per run, in reverse order, in small transactions: sessions split across files and
  /// runs arrive tail first and are re-derived when their start arrives. The sample's session
  /// ids are random: in session key epochs of 40 (about ten closed), a session whose tail was
  /// stored in an epoch closed since is found there, not stored twice.
  @Test(arguments: [nil, 40] as [Int?])
  func piecesInAnyOrderAndRunsGiveTheCleanResult(keyEpochCapacity: Int?) throws {
    let dir = try TemporaryDirectory()
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest([samples.path], clean)

    let pieces = try PullParityDatabase(path: dir.path("pieces.sqlite"))
    for input in try InputCatalog.expand([samples.path]).reversed() {
      _ = try ingest([input.name], pieces, transactionLines: 250, keyEpochCapacity: keyEpochCapacity)
    }
    let derived: Set<String> = ["sessions", "violations"]
    #expect(try DatabaseDump.all(pieces, only: derived) == DatabaseDump.all(clean, only: derived))
    // 362 sessions: none closes an epoch of the default 65,536.
    let closed = try DatabaseDump.count(pieces, "session_key_filters")
    #expect(keyEpochCapacity == nil ? closed == 0 : closed > 5)
  }

  /// The sample's ids are random (UUIDv4): in key epochs of 500, ingested in pieces and small
  /// transactions, each piece's copies are found in closed epochs, and the result is the clean one.
  @Test func randomIdsInManyKeyEpochsGiveTheCleanResult() throws {
    let dir = try TemporaryDirectory()
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest([samples.path], clean)
    let db = try PullParityDatabase(path: dir.path("epochs.sqlite"))
    for input in try InputCatalog.expand([samples.path]) {
      _ = try ingest([input.name], db, transactionLines: 300, keyEpochCapacity: 500)
    }
    #expect(try DatabaseDump.all(db) == DatabaseDump.all(clean))
    // The same events as one new file: its chunks are new, so every line is looked up.
    let names = ["padel-ios-1.jsonl", "padel-ios-2.jsonl", "padel-pwa.jsonl", "phlock-ios.jsonl"]
    let lines = try names.map { try Data(contentsOf: samples.appendingPathComponent($0)) }.reduce(Data(), +)
    let resent = try dir.write("resent.jsonl", lines)
    let again = try ingest([resent], db, transactionLines: 300, keyEpochCapacity: 500)
    #expect(again.counts.eventsStored == 0 && again.counts.conflicts == 0)
    #expect(again.counts.duplicates > 10_000)
    #expect(
      try DatabaseDump.all(db, only: ["events", "sessions", "violations"])
        == DatabaseDump.all(clean, only: ["events", "sessions", "violations"]))
    // 13,000-odd events: about 20 closed epochs.
    #expect(try DatabaseDump.count(db, "event_key_filters") > 15)
    #expect(try DatabaseDump.count(clean, "event_key_filters") == 0)
  }

  @Test func aSessionSplitAcrossRunsCompletesWhenItsTailArrives() throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("split.sqlite"))
    let part1 = samples.appendingPathComponent("padel-ios-1.jsonl").path
    let part2 = samples.appendingPathComponent("padel-ios-2.jsonl").path
    _ = try ingest([part1], db)
    let expected = try RepositoryPaths.expectedSample()
    let ids = try expected["padel_ios_split"]["sessions_in_both_files"].array.map { try $0.string }
    let truth = try expected["sessions"].object
    #expect(ids.count == 6)
    let queries = ReportQueries(db)
    let before = try queries.sessions(.init()).filter { ids.contains($0.sessionID) }
    #expect(before.count == 6)
    #expect(before.allSatisfy { $0.metrics.outcome == .incomplete })
    _ = try ingest([part2], db)
    let after = try queries.sessions(.init()).filter { ids.contains($0.sessionID) }
    #expect(after.count == 6)
    for session in after {
      #expect(try session.metrics.outcome.rawValue == truth[session.sessionID]?["outcome"].string)
    }
    #expect(after.contains { $0.metrics.outcome == .completed })
  }

  @Test func aConflictKeepsTheFirstVersionAndQuarantinesTheOther() throws {
    let dir = try TemporaryDirectory()
    let first =
      #"{"event_id":"e1","session_id":"s1","ts":1795000000000,"platform":"ios","app":"padel","type":"pull_start"}"#
    let other =
      #"{"event_id":"e1","session_id":"s1","ts":1795000000001,"platform":"ios","app":"padel","type":"pull_start"}"#
    let a = try dir.write("a.jsonl", first + "\n" + first + "\n")
    let b = try dir.write("b.jsonl", other + "\n")
    let db = try PullParityDatabase(path: dir.path("conflict.sqlite"))
    let summary = try ingest([b, a], db)  // named out of order: files are read in path order
    #expect(summary.counts.eventsStored == 1)
    #expect(summary.counts.duplicates == 1)
    #expect(summary.counts.conflicts == 1)
    #expect(summary.counts.quarantined == 0)
    let stored = try DatabaseDump.rows(db, table: "events", columns: "raw", order: "event_pk")
    #expect(stored == ["[raw:\"\(first.replacingOccurrences(of: "\"", with: "\\\""))\"]"])
    let quarantined = try DatabaseDump.rows(
      db, table: "quarantine", columns: "source, line, category, event_id", order: "line")
    #expect(quarantined == ["[source:\"\(b)\" line:1 category:\"conflict\" event_id:\"e1\"]"])
  }

  @Test func theFirstSeenVersionWinsEvenWhenItsSessionAppearsLaterInTheChunk() throws {
    let dir = try TemporaryDirectory()
    func line(_ id: String, _ session: String, _ ts: Int) -> String {
      #"{"event_id":"\#(id)","session_id":"\#(session)","ts":\#(ts),"platform":"ios","app":"padel","type":"pull_start"}"#
    }
    // Session B shows up first; then e1 in session A (first seen), then e1 again in session B.
    let log = [
      line("b0", "B", 1_795_000_000_000), line("e1", "A", 1_795_000_000_010), line("e1", "B", 1_795_000_000_020),
    ]
    let path = try dir.write("log.jsonl", log.joined(separator: "\n") + "\n")
    let db = try PullParityDatabase(path: dir.path("order.sqlite"))
    let summary = try ingest([path], db)
    #expect(summary.counts.conflicts == 1)
    let stored = try DatabaseDump.rows(db, table: "events", columns: "event_id, session_id", order: "event_id")
    #expect(stored == [#"[event_id:"b0" session_id:"B"]"#, #"[event_id:"e1" session_id:"A"]"#])
    let quarantined = try DatabaseDump.rows(db, table: "quarantine", columns: "line", order: "line")
    #expect(quarantined == ["[line:3]"])
  }

  @Test func newEventsAfterARunOfDuplicatesAreDerivedAllTheSame() throws {
    // A file sent again, then a new one: after chunks of duplicates the reader stops deriving
    // sessions ahead, and the writer derives the new sessions from what it stored.
    let dir = try TemporaryDirectory()
    let resent = samples.appendingPathComponent("padel-pwa.jsonl").path
    let fresh = samples.appendingPathComponent("phlock-ios.jsonl").path
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest([resent, fresh], clean)
    let db = try PullParityDatabase(path: dir.path("resent.sqlite"))
    _ = try ingest([resent], db)
    let summary = try ingest([resent, fresh], db, transactionLines: 500)
    #expect(summary.counts.eventsStored > 0 && summary.counts.duplicates > 0)
    let derived: Set<String> = ["sessions", "violations"]
    #expect(try DatabaseDump.all(db, only: derived) == DatabaseDump.all(clean, only: derived))
  }

  @Test(arguments: [
    ("a.jsonl", "a.jsonl"), ("./a.jsonl", "a.jsonl"), ("logs//../a.jsonl", "a.jsonl"),
    ("/x/./y/../z.jsonl", "/x/z.jsonl"),
    ("../a.jsonl", "../a.jsonl"),
  ])
  func sourceNamesAreNormalized(path: String, name: String) {
    #expect(InputCatalog.normalized(path) == name)
  }

  @Test func theSameFileUnderAnotherSpellingIsTheSameSource() throws {
    let dir = try TemporaryDirectory()
    let bad = samples.appendingPathComponent("bad-lines.jsonl").path
    let copy = try dir.write("bad.jsonl", try Data(contentsOf: URL(fileURLWithPath: bad)))
    let db = try PullParityDatabase(path: dir.path("spelling.sqlite"))
    _ = try ingest([copy], db)
    let before = try DatabaseDump.all(db)
    let respelled = dir.url.path + "/.//bad.jsonl"
    _ = try ingest([respelled], db)
    #expect(try DatabaseDump.all(db) == before)
    #expect(try DatabaseDump.count(db, "sources") == 1)
  }

  @Test func aSessionSpanningChunksOfOneTransactionIsCountedOnce() throws {
    let dir = try TemporaryDirectory()
    var lines: [String] = []
    for i in 0..<9 {
      lines.append(
        #"{"event_id":"e\#(i)","session_id":"one","ts":\#(1_795_000_000_000 + i),"platform":"ios","app":"padel","type":"pull_move","distance":\#(i)}"#
      )
    }
    let path = try dir.write("one.jsonl", lines.joined(separator: "\n") + "\n")
    let db = try PullParityDatabase(path: dir.path("one.sqlite"))
    // One transaction of 9 lines made of chunks of 3: the session is written three times.
    var options = IngestOptions(transactionLines: 9, toolVersion: "test")
    options.maxChunkLines = 3
    let summary = try Ingestor(database: db, options: options).run(try InputCatalog.expand([path]))
    #expect(summary.counts.sessionsDerived == 1)
    #expect(summary.counts.eventsStored == 9)
  }

  @Test func aChunkWithOneChangedLineIsReadAgainNotSkipped() throws {
    let dir = try TemporaryDirectory()
    let original = try String(contentsOf: samples.appendingPathComponent("phlock-ios.jsonl"), encoding: .utf8)
    let path = try dir.write("log.jsonl", original)
    let db = try PullParityDatabase(path: dir.path("changed.sqlite"))
    _ = try ingest([path], db, transactionLines: 1000)
    // The same file again, its 1500th line changed (same event id, other content, same length):
    // the chunk that holds it is new and yields a conflict; the others are skipped as known.
    var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[1499] = lines[1499].replacingOccurrences(of: "\"platform\":\"ios\"", with: "\"platform\":\"iot\"")
    #expect(lines[1499].contains("iot"))
    try dir.write("log.jsonl", lines.joined(separator: "\n"))
    let again = try ingest([path], db, transactionLines: 1000)
    #expect(again.counts.conflicts == 1)
    #expect(again.counts.eventsStored == 0)
    #expect(again.counts.duplicates == lines.filter { !$0.isEmpty }.count - 1)
    #expect(try DatabaseDump.count(db, "quarantine") == 1)
  }
}
