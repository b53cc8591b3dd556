import Foundation
import GRDB
import PullParityCore
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// The sample logs against the generator's own ground truth (sample-events/EXPECTED.json),
/// which was computed from what it planted, not by a second implementation of the rules.
@Suite struct SampleLogIngestTests {
  static func ingest(
    _ paths: [String], into db: PullParityDatabase, transactionLines: Int = 50_000
  ) throws -> IngestSummary {
    let options = IngestOptions(transactionLines: transactionLines, toolVersion: "test")
    return try Ingestor(database: db, options: options).run(try InputCatalog.expand(paths))
  }

  /// The chunk size is derived from the transaction size; the largest one did overflow there.
  @Test(arguments: [25_001, Int.max])
  func anyTransactionSizeStoresTheSample(transactionLines: Int) throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("sample.sqlite"))
    let summary = try Self.ingest(
      [RepositoryPaths.sampleEvents.path], into: db, transactionLines: transactionLines)
    #expect(try summary.counts.eventsStored == RepositoryPaths.expectedSample()["ingest"]["events_stored"].int)
    #expect(summary.status == .completed)
  }

  /// Ingest parses with simdjson; `ParserAgreementTests` holds the reference parser to the same
  /// result on every line of the sample, so the ground truth holds for both.
  @Test func everySessionMatchesTheGroundTruth() throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("sample.sqlite"))
    // Small transactions so sessions straddle chunk boundaries and are read back and re-derived.
    let summary = try Self.ingest([RepositoryPaths.sampleEvents.path], into: db, transactionLines: 997)
    let expected = try RepositoryPaths.expectedSample()
    let ingest = try expected["ingest"]

    #expect(try summary.counts.linesRead == ingest["lines_read"].int)
    #expect(try summary.counts.blankLines == ingest["blank_lines"].int)
    #expect(try summary.counts.eventsStored == ingest["events_stored"].int)
    #expect(try summary.counts.duplicates == ingest["duplicates"].int)
    #expect(try summary.counts.conflicts == ingest["conflicts"].int)
    #expect(try summary.counts.quarantined == ingest["quarantined"].int)
    #expect(summary.status == .completed)

    let queries = ReportQueries(db)
    let sessions = try queries.sessions(SessionFilter())
    var kindsBySession: [String: [String: Int]] = [:]
    for violation in try queries.violations(SessionFilter()) {
      kindsBySession[violation.sessionID, default: [:]][violation.kind.rawValue, default: 0] += 1
    }
    let truth = try expected["sessions"].object
    #expect(sessions.count == truth.count)
    for session in sessions {
      guard let want = truth[session.sessionID] else {
        Issue.record("session \(session.sessionID) is not in EXPECTED.json")
        continue
      }
      #expect(try session.app == want["app"].string)
      #expect(try session.platform == want["platform"].string)
      #expect(try session.metrics.outcome.rawValue == want["outcome"].string, "\(session.sessionID)")
      #expect(try session.metrics.trigger?.rawValue == want["trigger"].value as? String, "\(session.sessionID)")
      #expect(try session.empty == (want["empty"].value as? Bool ?? false))
      let wantKinds = try (want["violations"].value as? [String: Int] ?? [:]).filter { $0.value > 0 }
      #expect(kindsBySession[session.sessionID] ?? [:] == wantKinds, "\(session.sessionID)")
      // The kinds a session read for a report carries are those of its stored violations.
      let kinds = ViolationKinds(kinds: wantKinds.keys.compactMap(ViolationKind.init(rawValue:)))
      #expect(session.violationKinds == kinds, "\(session.sessionID)")
    }
  }

  @Test func badLinesAreQuarantinedWithTheirLineOffsetAndReason() throws {
    let dir = try TemporaryDirectory()
    let db = try PullParityDatabase(path: dir.path("bad.sqlite"))
    let badFile = RepositoryPaths.sampleEvents.appendingPathComponent("bad-lines.jsonl").path
    _ = try Self.ingest([badFile], into: db)
    let expected = try RepositoryPaths.expectedSample()["bad_lines"]["lines"].array
    let rows = try db.read { db in
      try Row.fetchAll(db, sql: "SELECT line, byte_offset, category FROM quarantine ORDER BY line")
    }
    let quarantinedAlone = try expected.filter { try $0["quarantined"].value as? Bool == true }
    #expect(rows.count == quarantinedAlone.count)
    // The generator names two categories differently; the meaning is the same.
    let synonyms = ["not_object": "not_an_object", "bad_ts": "bad_timestamp"]
    for (row, want) in zip(rows, quarantinedAlone) {
      #expect(try row["line"] as Int == want["line"].int)
      #expect(try row["byte_offset"] as Int == want["byte_offset"].int)
      let reason = try want["reason"].string
      #expect(row["category"] as String == synonyms[reason] ?? reason)
    }
  }
}
