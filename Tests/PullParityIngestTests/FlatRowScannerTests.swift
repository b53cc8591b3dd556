import Foundation
import Testing

@testable import PullParityDistributed

/// `load` reads event rows with `FlatRowScanner`, and `JSONDecoder` only the rows it does not take:
/// what it reads must be what `JSONDecoder` reads.
@Suite struct FlatRowScannerTests {
  static func scanned(_ line: String) -> EventTableRow? {
    var batch = EventBatch(file: "part-00000.json", expectedRows: 1)
    guard Array(line.utf8).withUnsafeBytes({ batch.append(scanning: $0, fileLine: 1) }) else {
      // A line left to `JSONDecoder` leaves nothing behind.
      #expect(batch.rows.isEmpty && batch.arena.isEmpty && batch.sessions.texts.isEmpty)
      return nil
    }
    return batch.decoded(batch.rows[0])
  }

  static func decoded(_ line: String) throws -> EventTableRow {
    try JSONDecoder().decode(EventTableRow.self, from: Data(line.utf8))
  }

  static func same(_ a: EventTableRow, _ b: EventTableRow) -> Bool {
    [a.eventID, a.sessionID, a.platform, a.app, a.type, a.source, a.raw].map { Array($0.utf8) }
      == [b.eventID, b.sessionID, b.platform, b.app, b.type, b.source, b.raw].map { Array($0.utf8) }
      && a.tsMs == b.tsMs && a.seq == b.seq && a.line == b.line && a.byteOffset == b.byteOffset
  }

  @Test(arguments: [
    #"{"event_id":"e1","session_id":"s1","ts_ms":1.7949708E12,"seq":null,"platform":"pwa","app":"padel","type":"pull_start","source":"a.jsonl","line":1,"byte_offset":0,"raw":"{\"event_id\":\"e1\"}"}"#,
    #"{"event_id":"é\u00e9","session_id":"s\ud83d\ude00","ts_ms":1794970800000.5,"seq":7,"platform":"p\/w","app":"a\\b","type":"t\n\t\r\b\f","source":"ö.jsonl","line":12,"byte_offset":-0,"raw":"x\"y","extra":true}"#,
    #" { "raw" : "" , "event_id":"","session_id":"","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":99 } "#,
    #"{"event_id":"e","session_id":"s","ts_ms":-0.0e-400,"platform":"","app":"","type":"","source":"s","line":-3,"byte_offset":0,"raw":"","seq":-0}"#,
  ])
  func readsWhatJSONDecoderReads(line: String) throws {
    let scanned = try #require(Self.scanned(line))
    #expect(Self.same(scanned, try Self.decoded(line)))
  }

  @Test(arguments: [
    #"{"event_id":"e1"}"#,  // columns missing
    #"{"event_id":"a\u0001b"}"#.replacingOccurrences(of: "\\u0001", with: "\u{1}"),  // a raw control character
    #"{"event_id":"\ud800","session_id":"s"}"#,  // a lone surrogate
    #"{"event_id":1,"session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":""}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3.5,"byte_offset":9,"raw":""}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":""} x"#,
    #"[1]"#,
    // Not JSON's numbers, or not a double's: `JSONDecoder` says so.
    #"{"event_id":"e","session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":03,"byte_offset":9,"raw":""}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":1.,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":""}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":1e400,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":""}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":-1e-400,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":""}"#,
    // A column twice: `JSONDecoder` keeps the first.
    #"{"event_id":"e","session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":"","event_id":"f"}"#,
    #"{"event_id":"e","session_id":"s","ts_ms":0,"platform":"","app":"","type":"","source":"s","line":3,"byte_offset":9,"raw":"","line":4}"#,
  ])
  func leavesToJSONDecoderWhatItDoesNotTake(line: String) {
    #expect(Self.scanned(line) == nil)
  }
}
