import PullParityCore
import PullParityStore
import Testing

@testable import PullParityReport

/// A rule's counts and example ids, taken in one pass over the sessions: the examples are the
/// smallest failing ids whatever order the sessions come in, as sorting every failing id was.
@Suite struct SessionTallyTests {
  static func record(_ id: String, flash: Bool?) -> SessionRecord {
    SessionRecord(
      sessionID: id, app: "padel", profile: "padel", profileVersion: 2, platform: "ios", appVersion: nil,
      screen: nil, empty: false, startedAtMs: 0, metrics: SessionMetrics(outcome: .completed, flash: flash))
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var sessions: [(String, Bool?)]
    var judged: Int
    var failing: Int
    var examples: [String]
    var testDescription: String { sessions.map { "\($0.0)=\($0.1.map(String.init) ?? "nil")" }.joined(separator: ",") }
  }

  static let cases: [Case] = [
    Case(sessions: [], judged: 0, failing: 0, examples: []),
    Case(sessions: [("b", true), ("a", nil), ("c", false)], judged: 2, failing: 1, examples: ["b"]),
    Case(
      sessions: [("e", true), ("d", true), ("c", false), ("b", true), ("f", true), ("a", true)], judged: 6,
      failing: 5, examples: ["a", "b", "d"]),
    Case(
      sessions: [("s9", true), ("s10", true), ("s1", true), ("s2", true)], judged: 4, failing: 4,
      examples: ["s1", "s10", "s2"]),
  ]

  @Test(arguments: cases)
  func countsAndSmallestFailingIds(_ c: Case) {
    let tally = RuleEvaluator.judge(
      .flash, sessions: c.sessions.map { Self.record($0.0, flash: $0.1) }, profile: BuiltInProfiles.padel)
    #expect(tally.judged == c.judged)
    #expect(tally.failing == c.failing)
    #expect(tally.examples == c.examples)
    #expect(tally.rate == Rate(numerator: c.failing, denominator: c.judged))
  }

  /// Each kind has its own bit, so a session's set answers for every kind apart.
  @Test func violationKindsHoldEachKindApart() {
    let all = ViolationKinds(kinds: ViolationKind.allCases)
    #expect(all.rawValue == (1 << ViolationKind.allCases.count) - 1)
    let some = ViolationKinds(kinds: [.flash, .cacheOrder])
    for kind in ViolationKind.allCases {
      #expect(some.contains(ViolationKinds(kind)) == [.flash, .cacheOrder].contains(kind), "\(kind)")
    }
  }
}
