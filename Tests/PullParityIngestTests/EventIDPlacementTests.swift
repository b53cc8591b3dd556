import Foundation
import GRDB
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// Where a block keeps an event's id: inside its line wherever the id's bytes are there (the
/// reading thread finds them, `ParsedLines.find`), else apart, when the line writes the id with
/// escapes. Either way the id read back is the event's, the line is the input's byte for byte,
/// and a second ingest finds every line a duplicate by that id.
@Suite struct EventIDPlacementTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// The line's fields before and after `event_id`, and how the line writes the id.
    let before: String
    let written: String
    let after: String
    let id: String

    var line: String {
      #"{\#(before)"event_id":"\#(written)","session_id":"s","ts":1795000000000,"platform":"ios","#
        + #""app":"padel","type":"pull_start"\#(after)}"#
    }
  }

  static let cases: [Case] = [
    Case(testDescription: "an id as the line writes it", before: "", written: "ev-1", after: "", id: "ev-1"),
    Case(testDescription: "an id written with escapes", before: "", written: #"ev\u002d2"#, after: "", id: "ev-2"),
    Case(
      testDescription: "an id whose bytes come first in another field", before: #""screen":"ev-3","#,
      written: "ev-3", after: "", id: "ev-3"),
    Case(
      testDescription: "an id inside a longer value before it", before: #""device":"xev-4x","#, written: "ev-4",
      after: "", id: "ev-4"),
    Case(
      testDescription: "non-ASCII bytes around an escaped id", before: #""screen":"Släpp","#,
      written: #"\u00e9v-5"#, after: #","text":"é""#, id: "év-5"),
    Case(
      testDescription: "a 128-character id", before: "", written: String(repeating: "z", count: 128), after: "",
      id: String(repeating: "z", count: 128)),
  ]

  @Test func idsAreReadBackFromTheirLines() throws {
    let dir = try TemporaryDirectory()
    let lines = Self.cases.map(\.line)
    let log = try dir.write("ids.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8))
    let db = try PullParityDatabase(path: dir.path("ids.sqlite"))
    let options = IngestOptions(toolVersion: "test")
    let first = try Ingestor(database: db, options: options).run(try InputCatalog.expand([log]))
    #expect(first.counts.eventsStored == Self.cases.count && first.counts.quarantined == 0)

    let stored = try StoredEventsTable.read(db) { db in
      try Row.fetchAll(db, sql: "SELECT event_id, raw FROM events ORDER BY event_pk").map {
        [$0["event_id"] as String, $0["raw"] as String]
      }
    }
    #expect(stored == Self.cases.map { [$0.id, $0.line] })

    // The same lines in another order: new chunks, read afresh, each found stored by its id.
    let again = try dir.write("again.jsonl", Data((lines.reversed().joined(separator: "\n") + "\n").utf8))
    let second = try Ingestor(database: db, options: options).run(try InputCatalog.expand([again]))
    #expect(second.counts.eventsStored == 0 && second.counts.conflicts == 0)
    #expect(second.counts.duplicates == Self.cases.count)
  }
}
