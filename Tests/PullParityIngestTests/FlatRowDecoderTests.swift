import Foundation
import PullParityStore
import Testing

@testable import PullParityDistributed

/// `load` reads the rows of a run's sessions, violations and quarantine tables with
/// `FlatRowDecoder`, and `JSONDecoder` only the lines it does not take: what it reads must be
/// what `JSONDecoder` reads.
@Suite struct FlatRowDecoderTests {
  static func scanned<Row: PlainDecodableRow>(_ type: Row.Type, _ line: String) -> Row? {
    Array(line.utf8).withUnsafeBytes { FlatRowDecoder.decode(Row.self, from: $0) }
  }

  static func decoded<Row: Decodable>(_ type: Row.Type, _ line: String) throws -> Row {
    try JSONDecoder().decode(Row.self, from: Data(line.utf8))
  }

  /// A session row as Spark writes it (keys in order, absent optionals left out), with `extra`
  /// fields in place of its last ones.
  static func session(_ extra: String = #""started_at_ms":1794808800040,"stuck_refresh":0,"visible_ms":1259"#)
    -> String
  {
    #"{"app":"padel","app_version":"3.8.1","arm_distance":34.2,"arm_mismatch":1,"client_arm_distance":26.9,"#
      + #""device":"iPhone17,2","empty":0,"ended_at_ms":1.794808801634E12,"event_count":29,"final_state":"done","#
      + #""flash":0,"label_violations":0,"load_ms":560,"max_offset_error":0.3000000000000007,"outcome":"completed","#
      + #""platform":"ios","profile":"padel","profile_version":2,"screen":"Feed\u00e9\/\"x\"","#
      + #""session_id":"01a1e2f0-e328-76e4-a809-bb74b7cab579","trigger":null,"violation_count":1,"# + extra + "}"
  }

  @Test(arguments: [
    session(),
    session(#""started_at_ms":-0.0,"install_id":"i\ud83d\ude00","near_miss":1,"unknown":true"#),
    session(#""started_at_ms":4e-3,"visible_ms":null,"judge_again_at_ms":0e-400"#),
  ])
  func readsSessionsAsJSONDecoderDoes(line: String) throws {
    #expect(try #require(Self.scanned(SessionRow.self, line)) == (try Self.decoded(SessionRow.self, line)))
  }

  @Test(arguments: [
    #"{"actual":"visible 258.3 ms","expected":"visible ≥ 1200 ms","kind":"flash","ordinal":0,"session_id":"s","ts_ms":1794808801080.8}"#,
    #"{"kind":"flash","ordinal":-12,"session_id":"","ts_ms":17,"expected":null}"#,
  ])
  func readsViolationsAsJSONDecoderDoes(line: String) throws {
    #expect(try #require(Self.scanned(ViolationRow.self, line)) == (try Self.decoded(ViolationRow.self, line)))
  }

  @Test func readsQuarantinedLinesAsJSONDecoderDoes() throws {
    let line =
      #"{"source":"a.jsonl","line":3,"byte_offset":120,"category":"not_json","reason":"no \"{\"","raw_hex":"ff00"}"#
    let scanned = try #require(Self.scanned(QuarantineTableRow.self, line))
    let decoded = try Self.decoded(QuarantineTableRow.self, line)
    #expect(
      [scanned.source, scanned.category, scanned.reason, scanned.rawHex] == [
        decoded.source, decoded.category, decoded.reason, decoded.rawHex,
      ])
    #expect(scanned.line == decoded.line && scanned.byteOffset == decoded.byteOffset && scanned.raw == nil)
  }

  /// Lines this decoder leaves to `JSONDecoder`: some it reads (an `Int` written `1.0`, a key
  /// twice), most it refuses with the error `load` reports.
  @Test(arguments: [
    #"{"kind":"flash","ordinal":0,"session_id":"s"}"#,  // ts_ms missing
    #"{"kind":"flash","ordinal":null,"session_id":"s","ts_ms":1}"#,
    #"{"kind":"flash","ordinal":1.0,"session_id":"s","ts_ms":1}"#,
    #"{"kind":"flash","ordinal":1e2,"session_id":"s","ts_ms":1}"#,
    #"{"kind":"flash","ordinal":123456789012345678901,"session_id":"s","ts_ms":1}"#,
    #"{"kind":"flash","ordinal":"1","session_id":"s","ts_ms":1}"#,
    #"{"kind":7,"ordinal":1,"session_id":"s","ts_ms":1}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":true}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1e400}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1e-400}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1e-310}"#,  // subnormal
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":01}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1,"kind":"hold"}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1,"expected":{}}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1,"unknown":[1]}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1,"expected":false}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1,"actual":"\ud800"}"#,
    #"{"kind":"flash","ordinal":1,"session_id":"s","ts_ms":1} {}"#,
  ])
  func leavesToJSONDecoderWhatItDoesNotTake(line: String) {
    #expect(Self.scanned(ViolationRow.self, line) == nil)
  }
}
