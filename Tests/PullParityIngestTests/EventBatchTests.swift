import Foundation
import PullParityIngest
import Testing

@testable import PullParityDistributed

/// `load` hands event rows from its reading thread to its writer in `EventBatch`es: the rows'
/// texts in one arena, each session and source once.
@Suite struct EventBatchTests {
  static func line(_ id: String, session: String, source: String = "a.jsonl") -> String {
    #"{"event_id":"\#(id)","session_id":"\#(session)","ts_ms":1,"seq":null,"platform":"ios","app":"padel","#
      + #""type":"label","source":"\#(source)","line":1,"byte_offset":0,"raw":"{}"}"#
  }

  @Test(arguments: [
    (["s1", "s1", "s2", "s1"], ["s1", "s2"], [0, 0, 1, 0]),
    (["s2", "s1", "s2"], ["s2", "s1"], [0, 1, 0]),
    // Other bytes, though Swift's `String` calls them equal (é precomposed, then decomposed).
    (["\u{E9}", "e\u{301}"], ["\u{E9}", "e\u{301}"], [0, 1]),
  ])
  func namesEachSessionOnceInFirstSeenOrder(sessions: [String], distinct: [String], indices: [Int]) {
    var batch = EventBatch(file: "part-00000.json", expectedRows: sessions.count)
    for (number, session) in sessions.enumerated() {
      let scanned = Array(Self.line("e\(number)", session: session).utf8).withUnsafeBytes {
        batch.append(scanning: $0, fileLine: number + 1)
      }
      #expect(scanned)
    }
    #expect(batch.sessions.texts.map { Array($0.utf8) } == distinct.map { Array($0.utf8) })
    #expect(batch.rows.map(\.event.sessionIndex) == indices)
    #expect(batch.sources.texts == ["a.jsonl"])
  }

  @Test func aRowJSONDecoderReadIsTheRowTheScannerReads() throws {
    let line = Self.line("e1", session: "s1", source: "b.jsonl")
    var scanned = EventBatch(file: "part-00000.json", expectedRows: 1)
    #expect(Array(line.utf8).withUnsafeBytes { scanned.append(scanning: $0, fileLine: 7) })
    var decoded = EventBatch(file: "part-00000.json", expectedRows: 1)
    decoded.append(try FlatRowScannerTests.decoded(line), fileLine: 7)
    #expect(FlatRowScannerTests.same(scanned.decoded(scanned.rows[0]), decoded.decoded(decoded.rows[0])))
    #expect(scanned.arena == decoded.arena)
    #expect(
      scanned.rows[0].event.idKey == decoded.rows[0].event.idKey && scanned.rows[0].idHash == decoded.rows[0].idHash)
    #expect(decoded.location(of: decoded.rows[0]) == PipeLocation(input: "part-00000.json", line: 7))
  }
}

/// The ids a load stored, a list until asked and a set from then on: the answers are a set's.
@Suite struct StoredIDsTests {
  @Test(arguments: [
    ([1, 2, 3], [2, 4], [3, 4], [true, false, true, true]),
    ([], [1], [1, 1], [false, true, true]),
  ])
  func answersAsASet(before: [Int64], asked: [Int64], after: [Int64], expected: [Bool]) {
    var ids = StoredIDs(expected: 4)
    for id in before { ids.insert(id) }
    var answers = asked.map { ids.contains($0) }
    for id in after { ids.insert(id) }
    answers += [after[0], 1].map { ids.contains($0) }
    #expect(answers == expected)
  }
}
