import Foundation
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// The drill-down finds a session's stored events by its id: a UUIDv7 session through its key
/// (`sessions_by_key`), any other id by a scan. One sample session is ingested twice, under a
/// UUIDv7 and under a random id.
@Suite struct SessionLookupTests {
  static let v7 = "019a8c1e-2f00-7abc-8def-0123456789ab"
  /// Same millisecond, another id: shares the time part of the key.
  static let otherV7 = "019a8c1e-2f00-7fff-8000-000000000000"
  static let random = "5c094b08-9c72-4997-8086-82cdf2cc6e82"

  @Test func storedEventsAreFoundByTimeKeyAndByScan() throws {
    let dir = try TemporaryDirectory()
    let sample = try String(
      contentsOf: RepositoryPaths.sampleEvents.appendingPathComponent("padel-ios-1.jsonl"), encoding: .utf8)
    let lines = sample.split(separator: "\n").filter { $0.contains(Self.random) }.map(String.init)
    #expect(lines.count > 3)
    // The copy under the UUIDv7 gets other event ids, so that it is not a conflict.
    let copy = lines.map {
      $0.replacingOccurrences(of: Self.random, with: Self.v7)
        .replacingOccurrences(of: "\"event_id\":\"", with: "\"event_id\":\"v7-")
    }
    let log = try dir.write("two.jsonl", (lines + copy).joined(separator: "\n") + "\n")
    let database = try PullParityDatabase(path: dir.path("lookup.sqlite"))
    _ = try Ingestor(database: database, options: IngestOptions(toolVersion: "test")).run(InputCatalog.expand([log]))

    let queries = ReportQueries(database)
    #expect(try queries.storedEvents(ofSession: Self.v7).count == lines.count)
    #expect(try queries.storedEvents(ofSession: Self.random).count == lines.count)
    #expect(try queries.storedEvents(ofSession: Self.otherV7).isEmpty)
  }
}
