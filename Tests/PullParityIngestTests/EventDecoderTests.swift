import PullParityCore
import PullParityIngest
import PullParityTestSupport
import Testing

/// The contract's field rules, whichever parser extracted the fields: every accepted form and
/// every rejection reason, with a message that names the field.
@Suite struct EventDecoderTests {
  static let base = #""event_id":"e1","session_id":"s1","platform":"ios","app":"padel""#

  static func line(_ fields: String, ts: String = "1795000000000") -> String {
    "{\(base),\"ts\":\(ts),\(fields)}"
  }

  static func decode(_ line: String, _ parser: ParserKind) -> LineParseResult {
    var decoder = LineDecoder(parser)
    return decoder.decode(line)
  }

  @Test(arguments: ParserKind.allCases)
  func everyFieldOfEveryType(parser: ParserKind) throws {
    let cases: [(String, EventPayload)] = [
      (#""type":"pull_start""#, .pullStart),
      (#""type":"pull_move","distance":12.5,"offset":9"#, .pullMove(distance: 12.5, offset: 9)),
      (#""type":"pull_move","distance":0"#, .pullMove(distance: 0, offset: nil)),
      (#""type":"armed","distance":33.4"#, .armed(distance: 33.4)),
      (#""type":"disarmed","distance":20"#, .disarmed(distance: 20)),
      (#""type":"release","distance":50"#, .release(distance: 50)),
      (#""type":"cancel","reason":"scroll_took_over""#, .cancel(reason: "scroll_took_over")),
      (#""type":"cancel""#, .cancel(reason: nil)),
      (
        #""type":"label","text":"Sl\u00e4pp \"f\u00f6r\"","state":"ready""#,
        .label(text: "Släpp \"för\"", state: .ready)
      ),
      (#""type":"refresh_start""#, .refreshStart(trigger: .pull)),
      (#""type":"refresh_start","trigger":"tab_reselect""#, .refreshStart(trigger: .tabReselect)),
      (#""type":"refresh_start","trigger":"programmatic""#, .refreshStart(trigger: .programmatic)),
      (#""type":"indicator_shown""#, .indicatorShown(nil)),
      (
        #""type":"indicator_shown","indicator":{"kind":"waveform","count":5,"stagger_ms":100,"cycle_ms":500}"#,
        .indicatorShown(IndicatorConfig(kind: .waveform, count: 5, staggerMs: 100, cycleMs: 500))
      ),
      (#""type":"indicator_hidden""#, .indicatorHidden),
      (#""type":"reveal","progress":0.6,"visible":4"#, .reveal(progress: 0.6, visible: 4)),
      (#""type":"scroll_to_top""#, .scrollToTop),
      (#""type":"cache_invalidated","key":"page:42""#, .cacheInvalidated(key: "page:42")),
      (#""type":"fetch_start""#, .fetchStart),
      (#""type":"load_complete","ok":false,"error":"timeout""#, .loadComplete(ok: false, error: "timeout")),
      (#""type":"error_shown","message":"Kunde inte uppdatera""#, .errorShown(message: "Kunde inte uppdatera")),
      (#""type":"content_cleared""#, .contentCleared),
      (#""type":"screen_left""#, .screenLeft(reason: nil)),
      (#""type":"screen_left","reason":"navigation""#, .screenLeft(reason: "navigation")),
    ]
    #expect(Set(cases.map(\.1.type)) == Set(EventType.allCases))
    for (fields, payload) in cases {
      let result = Self.decode(Self.line(fields), parser)
      guard case .event(let event) = result else {
        Issue.record("\(fields): \(result)")
        continue
      }
      #expect(event.payload == payload, "\(fields)")
    }
  }

  @Test(arguments: ParserKind.allCases)
  func optionalFieldsAndUnknownOnes(parser: ParserKind) {
    let line = Self.line(
      #""type":"pull_start","seq":3,"profile":"padel","app_version":"3.8.1","os_version":"iOS 18","device":"iPhone","screen":"FeedView","empty":true,"build":{"x":[1,2]}"#
    )
    #expect(
      Self.decode(line, parser)
        == .event(
          Event(
            eventID: "e1", sessionID: "s1", timestamp: 1_795_000_000_000, seq: 3, platform: "ios", app: "padel",
            profile: "padel", appVersion: "3.8.1", osVersion: "iOS 18", device: "iPhone", screen: "FeedView",
            empty: true, payload: .pullStart)))
  }

  @Test(arguments: [
    // Epoch milliseconds with a fraction, and RFC 3339 with Z or an offset, all the same instant.
    ("1795000000123.5", 1_795_000_000_123.5),
    (#""2026-11-18T11:06:40.1235Z""#, 1_795_000_000_123.5),
    (#""2026-11-18T12:06:40.1235+01:00""#, 1_795_000_000_123.5),
    (#""2026-11-18T06:06:40.1235-05:00""#, 1_795_000_000_123.5),
    (#""2026-11-18t11:06:40.1235z""#, 1_795_000_000_123.5),
    (#""2026-11-18T11:06:40Z""#, 1_795_000_000_000),
  ])
  func timestampForms(ts: String, epochMs: Double) {
    guard case .event(let event) = Self.decode(Self.line(#""type":"pull_start""#, ts: ts), .simdjson) else {
      Issue.record("rejected \(ts)")
      return
    }
    #expect(event.timestamp == epochMs)
  }

  /// Each rejection: the category and words that name the field and what was wrong.
  @Test(
    arguments: [
      ("{}", RejectionReason.missingField, "`event_id`"),
      (
        #"{"session_id":"s","ts":1795000000000,"platform":"ios","app":"a","type":"pull_start"}"#, .missingField,
        "missing field `event_id`"
      ),
      (line(#""type":"pull_move""#), .missingField, "`distance`"),
      (line(#""type":"label","text":"x""#), .missingField, "`state`"),
      (line(#""type":"load_complete""#), .missingField, "`ok`"),
      (line(#""type":"reveal","progress":0.2"#), .missingField, "`visible`"),
      (line(#""type":"cache_invalidated""#), .missingField, "`key`"),
      (
        line(#""type":"pull_start""#, ts: "true"), .wrongType,
        "`ts` must be a number (epoch ms) or an RFC 3339 string, got a boolean"
      ),
      (
        #"{"event_id":7,"session_id":"s","ts":1795000000000,"platform":"ios","app":"a","type":"pull_start"}"#,
        .wrongType, "`event_id` must be a string, got a number"
      ),
      (line(#""type":"pull_move","distance":"12""#), .wrongType, "`distance` must be a number, got a string"),
      (line(#""type":"pull_start","seq":1.5"#), .wrongType, "`seq` must be an integer"),
      (line(#""type":"pull_start","empty":"yes""#), .wrongType, "`empty` must be a boolean"),
      (line(#""type":"indicator_shown","indicator":[4]"#), .wrongType, "`indicator` must be an object"),
      (line(#""type":"indicator_shown","indicator":{"count":"4"}"#), .wrongType, "`indicator.count` must be a number"),
      (line(#""type":"pull_dance""#), .unknownType, "\"pull_dance\" is not an event type"),
      (line(#""type":"pull_start""#, ts: #""yesterday""#), .badTimestamp, "not an RFC 3339 timestamp"),
      (line(#""type":"pull_start""#, ts: #""2026-11-20T10:15:02""#), .badTimestamp, "with a UTC offset"),
      (line(#""type":"pull_start""#, ts: #""2026-02-30T10:15:02Z""#), .badTimestamp, "not an RFC 3339"),
      (line(#""type":"pull_start""#, ts: "1795000000"), .badTimestamp, "outside 2000–2100"),
      (line(#""type":"pull_move","distance":-1"#), .invalidValue, "`distance` -1 must be ≥ 0"),
      (
        line(#""type":"label","text":"x","state":"armed""#), .invalidValue,
        "`state` \"armed\" is not one of pulling, ready, refreshing"
      ),
      (line(#""type":"refresh_start","trigger":"shake""#), .invalidValue, "`trigger` \"shake\""),
      (line(#""type":"reveal","progress":1.5,"visible":5"#), .invalidValue, "`progress` 1.5 must be between 0 and 1"),
      (
        #"{"event_id":"","session_id":"s","ts":1795000000000,"platform":"ios","app":"a","type":"pull_start"}"#,
        .invalidValue, "`event_id` must not be empty"
      ),
      (
        #"{"event_id":"e","session_id":"s","ts":1795000000000,"platform":"iOS","app":"a","type":"pull_start"}"#,
        .invalidValue, "`platform` \"iOS\" must be a non-empty lowercase token"
      ),
      (
        "{\"event_id\":\"\(String(repeating: "x", count: 129))\",\"session_id\":\"s\",\"ts\":1795000000000,\"platform\":\"ios\",\"app\":\"a\",\"type\":\"pull_start\"}",
        .invalidValue, "129 characters, more than 128"
      ),
      ("not json", .notJSON, "not valid JSON"),
      ("{'a':1}", .notJSON, "not valid JSON"),
      (#"{"ts":NaN}"#, .notJSON, "not valid JSON"),
      (#"{"a":1} x"#, .notJSON, "not valid JSON"),
      (#"{"a":1"#, .notJSON, "not valid JSON"),
      ("[1,2]", .notAnObject, "an array, not a JSON object"),
      (#""just a string""#, .notAnObject, "a string, not a JSON object"),
    ] as [(String, RejectionReason, String)])
  func rejections(line: String, reason: RejectionReason, mentions: String) {
    for parser in ParserKind.allCases {
      guard case .rejected(let rejection) = Self.decode(line, parser) else {
        Issue.record("\(parser) accepted \(line)")
        continue
      }
      #expect(rejection.reason == reason, "\(parser): \(line)")
      #expect(rejection.message.contains(mentions), "\(parser): \(rejection.message)")
    }
  }

  @Test(arguments: ParserKind.allCases)
  func descriptiveFieldsOfOtherTypesDoNotCostTheEvent(parser: ParserKind) {
    let line = Self.line(#""type":"load_complete","ok":false,"error":{"code":500},"app_version":2,"device":true"#)
    guard case .event(let event) = Self.decode(line, parser) else {
      Issue.record("rejected \(line)")
      return
    }
    #expect(event.payload == .loadComplete(ok: false, error: nil))
    #expect(event.appVersion == "2")
    #expect(event.device == nil)
  }

  @Test func anIdentifierOf128CharactersIsAccepted() {
    let id = String(repeating: "é", count: 128)  // 256 bytes, 128 characters
    let line =
      "{\"event_id\":\"\(id)\",\"session_id\":\"s\",\"ts\":1795000000000,\"platform\":\"ios\",\"app\":\"a\",\"type\":\"pull_start\"}"
    guard case .event(let event) = Self.decode(line, .simdjson) else {
      Issue.record("rejected a 128-character id")
      return
    }
    #expect(event.eventID == id)
  }

  /// Every dimension is at most 128 code points (a repeated key keeps its last value, so each
  /// line overrides the base's): one more is an `invalid_value` naming the field, whether the
  /// code points are one byte or two, and combining marks count as the code points they are
  /// (65 accented letters of two code points each are one too many).
  @Test(arguments: [
    ("app", "é", 128, true), ("app", "é", 129, false), ("platform", "p", 128, true), ("platform", "p", 129, false),
    ("profile", "x", 128, true), ("profile", "x", 129, false), ("screen", "e\u{301}", 64, true),
    ("screen", "e\u{301}", 65, false), ("app_version", "9", 128, true), ("app_version", "9", 129, false),
    ("os_version", "é", 129, false), ("device", "d", 128, true), ("device", "d", 1 << 20, false),
  ])
  func dimensionsAreAtMost128CodePoints(field: String, unit: String, count: Int, accepted: Bool) {
    let value = String(repeating: unit, count: count)
    let line = Self.line("\"type\":\"pull_start\",\"\(field)\":\"\(value)\"")
    for parser in ParserKind.allCases {
      switch Self.decode(line, parser) {
      case .event: #expect(accepted, "\(parser) accepted \(field) of \(value.unicodeScalars.count)")
      case .rejected(let rejection):
        #expect(!accepted, "\(parser): \(rejection.message)")
        #expect(rejection.reason == .invalidValue)
        let codePoints = value.unicodeScalars.count
        #expect(rejection.message == "`\(field)` is \(codePoints) code points long, more than 128", "\(parser)")
      default: Issue.record("\(parser): \(field)")
      }
    }
  }

  @Test func blankLinesAreNeitherEventsNorRejections() {
    #expect(Self.decode("", .simdjson) == .blank)
  }
}
