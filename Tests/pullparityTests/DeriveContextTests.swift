import Foundation
import PullParityTestSupport
import Testing

/// `derive`'s context lines: what a distributed run hands a session that the store would know
/// (docs/distributed-formats.md, "Judging across sessions").
@Suite struct DeriveContextTests {
  static let start = 1_794_970_800_000.0

  /// A refresh that the app's callback started and whose indicator never hid: stuck once the
  /// data is 30 s past its start, a repeat (v1.2) when the install's refresh before it started
  /// < 1 s before it or still ran.
  static func refresh(_ session: String, ids: (String, String)) -> [String] {
    let common = #""session_id":"\#(session)","platform":"pwa","app":"padel","screen":"feed","install_id":"i1""#
    return [
      #"{"event_id":"\#(ids.0)",\#(common),"ts":\#(start),"type":"refresh_start","gesture_observed":false}"#,
      #"{"event_id":"\#(ids.1)",\#(common),"ts":\#(start + 10),"type":"indicator_shown"}"#,
    ]
  }

  /// derive's input lines for sessions r1 and r2, two events each, in that order.
  static func decodedLines() throws -> [String] {
    let raw = refresh("r1", ids: ("e1", "e2")) + refresh("r2", ids: ("e3", "e4"))
    return raw.enumerated().map { "a.jsonl\t\($0.offset * 200)\t\($0.offset + 1)\t\($0.element)" }
  }

  /// A context line: an empty source field, then the object.
  static func context(_ session: String, _ values: String = "") -> String {
    "\t\t\t" + #"{"kind":"context","session_id":"\#(session)"\#(values)}"#
  }

  /// Each session's row (by id) and its violations' kinds.
  static func derive(_ lines: [String]) throws -> (CommandRun, [String: [String: Any]], [String: [String]]) {
    let run = try CommandRun.pullparity(["derive"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    var sessions: [String: [String: Any]] = [:]
    var kinds: [String: [String]] = [:]
    for line in run.stdout.split(separator: "\n") {
      let object = try PipeVerbTests.json(line)
      guard let row = object["row"] as? [String: Any], let id = row["session_id"] as? String else { continue }
      if object["table"] as? String == "sessions" { sessions[id] = row }
      if object["table"] as? String == "violations" { kinds[id, default: []].append(row["kind"] as? String ?? "") }
    }
    return (run, sessions, kinds)
  }

  /// (the context line's values, stuck_refresh, repeated_refresh, judge_again_at_ms, violations)
  @Test(
    arguments: [
      (nil, nil, 0, start + 30_000, []),
      (#","horizon":\#(start + 40_000)"#, 1, 0, nil, ["stuck_refresh"]),
      (
        #","previous_refresh_started_at":\#(start - 900),"previous_refresh_ended_at":\#(start - 300)"#, nil, 1,
        start + 30_000, ["repeated_refresh"]
      ),
      // v1.2: within 1 s of the previous refresh's start, or while it runs (no end).
      (
        #","horizon":\#(start + 29_999),"previous_refresh_started_at":\#(start - 1_000),"previous_refresh_ended_at":\#(start - 500)"#,
        nil, 0, start + 30_000, [String]()
      ),
      (
        #","horizon":\#(start + 30_000),"previous_refresh_started_at":\#(start - 5_000)"#, 1, 1, nil,
        ["stuck_refresh", "repeated_refresh"]
      ),
    ] as [(String?, Int?, Int?, Double?, [String])])
  func deriveJudgesTheSessionAfterAContextLineWithIt(
    values: String?, stuck: Int?, repeated: Int?, judgeAgainAt: Double?, violations: [String]
  ) throws {
    let events = try Self.decodedLines()
    let (run, sessions, kinds) = try Self.derive((values.map { [Self.context("r1", $0)] } ?? []) + events)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let r1 = try #require(sessions["r1"])
    #expect(r1["stuck_refresh"] as? Int == stuck)
    #expect(r1["repeated_refresh"] as? Int == repeated)
    #expect(r1["judge_again_at_ms"] as? Double == judgeAgainAt)
    #expect(r1["violation_count"] as? Int == violations.count)
    #expect((kinds["r1"] ?? []) == violations)
    // The context is r1's only: r2, whose events follow, is judged alone.
    let r2 = try #require(sessions["r2"])
    #expect(r2["stuck_refresh"] == nil && r2["repeated_refresh"] as? Int == 0, "\(r2)")
    #expect(r2["judge_again_at_ms"] as? Double == Self.start + 30_000)
  }

  /// (where the context line goes among the 4 event lines, what it says, the error)
  @Test(arguments: [
    (0, context("r9"), #"-:1: context line for session "r9" is not followed by that session's events"#),
    (4, context("r3"), #"-:5: context line for session "r3" is not followed by that session's events"#),
    (2, context("r9"), #"-:3: context line for session "r9" is not followed by that session's events"#),
    (1, context("r1"), #"-:2: the context of session "r1" comes after its events; it must precede them"#),
    (4, context("r1"), #"-:5: session "r1" appears again after other sessions"#),
    (0, "\t\t\t" + #"{"kind":"context","horizon":1}"#, "-:1: not a context line"),
    (0, context("r1", #","horizon":"soon""#), "-:1: not a context line"),
    (0, "\t\t\t" + #"{"kind":"event","session_id":"r1"}"#, "-:1: not a context line"),
  ])
  func deriveRefusesAContextLineThatJudgesNoSessionOfItsOwn(at: Int, line: String, message: String) throws {
    var lines = try Self.decodedLines()
    lines.insert(line, at: at)
    let (run, _, _) = try Self.derive(lines)
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  /// Two context lines before one session: the first judges nothing.
  @Test func deriveRefusesASecondContextLineForTheSameSession() throws {
    let lines = [Self.context("r1"), Self.context("r1", #","horizon":1"#)] + (try Self.decodedLines())
    let (run, _, _) = try Self.derive(lines)
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(#"-:1: context line for session "r1" is not followed by that session's events"#),
      "\(run.stderr)")
  }
}
