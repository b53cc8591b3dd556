import CSimdjson
import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityIngest

/// Both parsers of the seam on the same lines: the exact fields or rejection each line gives, and
/// that `SimdjsonLineParser` and `FoundationLineParser` return identical results on every line,
/// malformed and random ones included.
@Suite struct LineParserTests {
  // MARK: - The table

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: Expected

    enum Expected: Sendable {
      case fields(ExtractedFields)
      case rejected(RejectionReason)
    }

    init(_ name: String, _ line: String, _ expected: Expected) {
      self.init(name, Array(line.utf8), expected)
    }

    init(_ name: String, _ bytes: [UInt8], _ expected: Expected) {
      self.name = name
      self.bytes = bytes
      self.expected = expected
    }

    var testDescription: String { name }
  }

  static func fields(_ pairs: KeyValuePairs<EventField, JSONValue>) -> Case.Expected {
    var fields = ExtractedFields()
    for (field, value) in pairs { fields[field] = value }
    return .fields(fields)
  }

  static let notJSON = Case.Expected.rejected(.notJSON)
  static let notAnObject = Case.Expected.rejected(.notAnObject)
  static let invalidUTF8 = Case.Expected.rejected(.invalidUTF8)

  static func nested(_ depth: Int) -> String {
    String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
  }

  /// `{"screen":{"screen":…{}…}}`, `depth` objects in all.
  static func nestedObjects(_ depth: Int) -> String {
    String(repeating: #"{"screen":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
  }

  static let megabyte = String(repeating: "pull to refresh ", count: 65_536)

  static let cases: [Case] = [
    // Valid events.
    Case(
      "pull_start",
      #"{"event_id":"e1","session_id":"s1","ts":1763633702345,"platform":"ios","app":"ffci","type":"pull_start","seq":0}"#,
      fields([
        .eventID: .string("e1"), .sessionID: .string("s1"), .ts: .number(1_763_633_702_345),
        .platform: .string("ios"), .app: .string("ffci"), .type: .string("pull_start"),
        .seq: .number(0),
      ])),
    Case(
      "pull_move with fraction, optional fields",
      #"{"event_id":"e2","session_id":"s1","ts":"2026-11-20T10:15:02.345+01:00","platform":"pwa","app":"feed","type":"pull_move","distance":42.5,"offset":-12,"profile":"ffci","app_version":"3.2.1","os_version":"17.5","device":"iPhone15,2","screen":"HomeView","empty":false}"#,
      fields([
        .eventID: .string("e2"), .sessionID: .string("s1"),
        .ts: .string("2026-11-20T10:15:02.345+01:00"), .platform: .string("pwa"),
        .app: .string("feed"), .type: .string("pull_move"), .distance: .number(42.5),
        .offset: .number(-12), .profile: .string("ffci"), .appVersion: .string("3.2.1"),
        .osVersion: .string("17.5"), .device: .string("iPhone15,2"), .screen: .string("HomeView"),
        .empty: .bool(false),
      ])),
    Case(
      "label with escapes",
      #"{"type":"label","text":"Zum Aktualisieren ziehen \u00e4 \"zitiert\" \\ \/ \n\t\b\f\r \ud83d\ude00 \u0000 ü","state":"pulling"}"#,
      fields([
        .type: .string("label"),
        .text: .string("Zum Aktualisieren ziehen ä \"zitiert\" \\ / \n\t\u{8}\u{C}\r 😀 \u{0} ü"),
        .state: .string("pulling"),
      ])),
    Case(
      "indicator object",
      #"{"type":"indicator_shown","indicator":{"kind":"balls","count":3,"stagger_ms":120,"cycle_ms":900.5,"extra":[1,{"kind":"no"}]}}"#,
      fields([
        .type: .string("indicator_shown"), .indicator: .object, .indicatorKind: .string("balls"),
        .indicatorCount: .number(3), .indicatorStaggerMs: .number(120),
        .indicatorCycleMs: .number(900.5),
      ])),
    Case(
      "indicator members of other types",
      #"{"indicator":{"kind":null,"count":"3","stagger_ms":true,"cycle_ms":{}}}"#,
      fields([
        .indicator: .object, .indicatorKind: .null, .indicatorCount: .string("3"),
        .indicatorStaggerMs: .bool(true), .indicatorCycleMs: .object,
      ])),
    Case("indicator string", #"{"indicator":"balls"}"#, fields([.indicator: .string("balls")])),
    Case(
      "indicator array", #"{"indicator":[{"kind":"balls"}]}"#, fields([.indicator: .array])),
    Case("indicator null", #"{"indicator":null}"#, fields([.indicator: .null])),
    Case("indicator empty object", #"{"indicator":{}}"#, fields([.indicator: .object])),
    Case(
      "indicator keys only inside indicator", #"{"kind":"balls","count":3,"cycle_ms":1}"#,
      fields([:])),
    Case(
      "load_complete",
      #"{"type":"load_complete","ok":false,"error":null,"message":"Offline","key":"feed:1","reason":"scroll","trigger":"tab_reselect","progress":0.6,"visible":4}"#,
      fields([
        .type: .string("load_complete"), .ok: .bool(false), .error: .null,
        .message: .string("Offline"), .key: .string("feed:1"), .reason: .string("scroll"),
        .trigger: .string("tab_reselect"), .progress: .number(0.6), .visible: .number(4),
      ])),
    Case(
      "unknown fields are skipped, nested known keys ignored",
      #"{"x_trace":{"event_id":"inner","type":"nope"},"bar":[1,2,{"ts":3}],"type":"fetch_start","zz":"\u00e4"}"#,
      fields([.type: .string("fetch_start")])),
    Case(
      "known keys with other types",
      #"{"event_id":7,"ts":null,"screen":{"a":1},"device":[],"empty":"yes","ok":1}"#,
      fields([
        .eventID: .number(7), .ts: .null, .screen: .object, .device: .array,
        .empty: .string("yes"), .ok: .number(1),
      ])),
    Case(
      "escaped key", #"{"\u0074ype":"cancel","event\u005fid":"e"}"#,
      fields([.type: .string("cancel"), .eventID: .string("e")])),
    Case(
      "U+FEFF inside strings is kept",
      "{\"\u{FEFF}type\":\"x\",\"text\":\"\u{FEFF}a\\n\u{FEFF}\",\"key\":\"\\uFEFF\"}",
      fields([.text: .string("\u{FEFF}a\n\u{FEFF}"), .key: .string("\u{FEFF}")])),
    Case(
      "keys are case-sensitive and exact", #"{"Type":"a","type ":"b","types":"c","typ":"d"}"#,
      fields([:])),
    Case(
      "repeated key: last wins", #"{"type":"a","seq":1,"type":"b","seq":null}"#,
      fields([.type: .string("b"), .seq: .null])),
    Case(
      "repeated indicator: the last one's members",
      #"{"indicator":{"kind":"balls","count":3},"indicator":{"kind":"native"}}"#,
      fields([.indicator: .object, .indicatorKind: .string("native")])),
    Case(
      "repeated indicator: last not an object",
      #"{"indicator":{"kind":"balls","count":3},"indicator":5}"#, fields([.indicator: .number(5)])),
    Case(
      "repeated indicator member", #"{"indicator":{"count":3,"count":4}}"#,
      fields([.indicator: .object, .indicatorCount: .number(4)])),
    Case("empty object", "{}", fields([:])),
    Case("empty object with whitespace", " \t{ \r\n }\t ", fields([:])),
    Case("trailing carriage return", "{\"type\":\"x\"}\r", fields([.type: .string("x")])),
    Case(
      "numbers",
      #"{"ts":-0,"seq":18446744073709551615,"distance":1E3,"offset":-9223372036854775808,"progress":1.5e-3,"visible":1e-400,"count":0.1}"#,
      fields([
        .ts: .number(0), .seq: .number(18_446_744_073_709_551_616),
        .distance: .number(1000), .offset: .number(-9_223_372_036_854_775_808),
        .progress: .number(0.0015), .visible: .number(0),
      ])),
    Case(
      "largest double, zero with a huge exponent",
      #"{"ts":1.7976931348623158e308,"seq":0e99999999999999999999,"distance":1e-99999999999999999999}"#,
      fields([.ts: .number(.greatestFiniteMagnitude), .seq: .number(0), .distance: .number(0)])),
    Case(
      "long mantissa",
      #"{"ts":1763633702345.1234567890123456789,"distance":12345678901234567890.5}"#,
      fields([
        .ts: .number(Double("1763633702345.1234567890123456789")!),
        .distance: .number(Double("12345678901234567890.5")!),
      ])),
    Case(
      "1 MB string value",
      #"{"type":"error_shown","message":"\#(megabyte)\u00e4"}"#,
      fields([.type: .string("error_shown"), .message: .string(megabyte + "ä")])),
    Case("512 levels of objects", nestedObjects(512), fields([.screen: .object])),
    Case(
      "512 levels deep", "{\"type\":\"x\",\"screen\":\(nested(511))}",
      fields([.type: .string("x"), .screen: .array])),

    // Beyond the parsers' own limits (simdjson: 512 levels, 64-bit integers, doubles;
    // JSONSerialization: 512 levels, 38-digit decimals), in fields nobody reads or exactly read.
    Case(
      "513 levels deep", "{\"type\":\"x\",\"screen\":\(nested(512))}", fields([.type: .string("x"), .screen: .array])),
    Case("513 levels of objects", nestedObjects(513), fields([.screen: .object])),
    Case(
      "100,000 levels in an unknown field", "{\"type\":\"x\",\"deep\":\(nested(100_000))}",
      fields([.type: .string("x")])),
    Case(
      "deep in an indicator member", "{\"indicator\":{\"kind\":\(nested(600)),\"count\":3}}",
      fields([.indicator: .object, .indicatorKind: .array, .indicatorCount: .number(3)])),
    Case("deep array root", nested(600), notAnObject),
    Case("overflow in an overwritten object", #"{"x":{"y":[-7031e40011]},"x":1}"#, fields([:])),
    Case("overflow in an unknown field", #"{"type":"x","n":1e400}"#, fields([.type: .string("x")])),
    Case("big integer under a repeated key", #"{"seq":18446744073709551616,"seq":1}"#, fields([.seq: .number(1)])),
    Case("integer above UInt64 in seq", #"{"seq":18446744073709551616}"#, fields([.seq: .number(0x1p64)])),
    Case("integer above UInt64", #"{"x":18446744073709551616}"#, fields([:])),
    Case("integer below Int64", #"{"x":-9223372036854775809}"#, fields([:])),
    Case("30-digit integer", #"{"x":123456789012345678901234567890}"#, fields([:])),
    Case(
      "41 significant digits in ts",
      #"{"ts":1763633702345.1234567890123456789012345678,"seq":12345678901234567890123456789012345678901}"#,
      fields([
        .ts: .number(Double("1763633702345.1234567890123456789012345678")!),
        .seq: .number(Double("12345678901234567890123456789012345678901")!),
      ])),

    // Not JSON.
    Case("single quotes", "{'a':1}", notJSON),
    Case("NaN", #"{"distance":NaN}"#, notJSON),
    Case("Infinity", #"{"distance":Infinity}"#, notJSON),
    Case("-Infinity", #"{"distance":-Infinity}"#, notJSON),
    Case("trailing garbage", #"{"type":"x"} x"#, notJSON),
    Case("two objects", #"{"type":"x"}{"type":"y"}"#, notJSON),
    Case("extra brace", #"{"type":"x"}}"#, notJSON),
    Case("truncated number", #"{"event_id":"e1","ts":17"#, notJSON),
    Case("truncated object", #"{"event_id":"e1""#, notJSON),
    Case("truncated string", #"{"event_id":"e1"#, notJSON),
    Case("truncated literal in unread value", #"{"event_id":"a", "x": tru}"#, notJSON),
    Case("bad literal", #"{"ok":True}"#, notJSON),
    Case("trailing comma in object", #"{"type":"x",}"#, notJSON),
    Case("trailing comma and space", #"{"type":"x" , }"#, notJSON),
    Case("trailing comma in array", #"{"x":[1,2, ]}"#, notJSON),
    Case("missing value", #"{"type":}"#, notJSON),
    Case("missing colon", #"{"type" "x"}"#, notJSON),
    Case("double comma", #"{"a":1,,"b":2}"#, notJSON),
    Case("unquoted key", "{type:1}", notJSON),
    Case("comment", #"{"a":/*c*/1}"#, notJSON),
    Case("leading zero", #"{"seq":01}"#, notJSON),
    Case("bare fraction", #"{"seq":.5}"#, notJSON),
    Case("dangling dot", #"{"seq":1.}"#, notJSON),
    Case("plus sign", #"{"seq":+1}"#, notJSON),
    Case("hex", #"{"seq":0x10}"#, notJSON),
    Case("bad escape", #"{"text":"\x"}"#, notJSON),
    Case("bad unicode escape", #"{"text":"\u00g0"}"#, notJSON),
    Case("lone high surrogate", #"{"text":"\ud83d"}"#, notJSON),
    Case("lone low surrogate", #"{"text":"\ude00x"}"#, notJSON),
    Case("raw tab in string", "{\"text\":\"a\tb\"}", notJSON),
    Case("raw control byte", "{\"text\":\"a\u{1}b\"}", notJSON),
    Case("NUL after the object", [UInt8]("{}".utf8) + [0], notJSON),
    Case("NUL inside", [UInt8]("{\"a\":".utf8) + [0] + [UInt8]("1}".utf8), notJSON),
    Case("UTF-16LE object", [0x7B, 0x00, 0x7D, 0x00], notJSON),
    Case("byte order mark", [0xEF, 0xBB, 0xBF] + [UInt8]("{}".utf8), notJSON),
    Case("number overflows a double", #"{"ts":1e400}"#, notJSON),
    Case("overflow under a repeated key", #"{"ts":1e400,"ts":1}"#, notJSON),
    Case("just above the largest double", #"{"ts":1.7976931348623159e308}"#, notJSON),
    Case("empty line", "", notJSON),
    Case("only spaces", "   ", notJSON),
    Case("no-break space", "\u{A0}{}", notJSON),

    // Not an object.
    Case("empty array", "[]", notAnObject),
    Case("array of events", #" [ {"event_id":"x"} ] "#, notAnObject),
    Case("string", #""pull_start""#, notAnObject),
    Case("escaped string", #""\u00e4""#, notAnObject),
    Case("integer", "12", notAnObject),
    Case("negative number", "-3.5e2", notAnObject),
    Case("true", "true", notAnObject),
    Case("false", "false", notAnObject),
    Case("null", "null", notAnObject),
    Case("deep array", nested(512), notAnObject),

    // Invalid UTF-8 (it wins over any JSON error).
    Case("0xFF in a string", [UInt8](#"{"text":""#.utf8) + [0xFF] + [UInt8](#""}"#.utf8), invalidUTF8),
    Case("lone 0xFF", [0xFF], invalidUTF8),
    Case("truncated sequence at the end", [UInt8](#"{"a":1}"#.utf8) + [0xC3], invalidUTF8),
    Case("overlong slash", [UInt8](#"{"text":""#.utf8) + [0xC0, 0xAF] + [UInt8](#""}"#.utf8), invalidUTF8),
    Case("encoded surrogate", [UInt8](#"{"text":""#.utf8) + [0xED, 0xA0, 0x80] + [UInt8](#""}"#.utf8), invalidUTF8),
    Case("above U+10FFFF", [UInt8](#"{"text":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + [UInt8](#""}"#.utf8), invalidUTF8),
    Case("stray continuation byte", [UInt8]("{\"a\":1}".utf8) + [0x80], invalidUTF8),
    Case("invalid UTF-8 and not JSON", [UInt8]("{'a':".utf8) + [0xFF] + [UInt8]("}".utf8), invalidUTF8),
    Case("invalid UTF-8 in an array", [0x5B, 0xFE, 0x5D], invalidUTF8),
    Case("UTF-16 byte order mark", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], invalidUTF8),
  ]

  /// Readable bytes past the end of the line: none, too few for simdjson (copied), enough
  /// (parsed in place).
  static let rooms = [0, 7, 64, 100]

  @Test(arguments: cases, rooms)
  func simdjsonParser(_ line: Case, room: Int) {
    var parser = SimdjsonLineParser()
    Self.check(parse(&parser, line.bytes, room: room), line.expected)
  }

  @Test(arguments: cases, [0, 64])
  func foundationParser(_ line: Case, room: Int) {
    var parser = FoundationLineParser()
    Self.check(parse(&parser, line.bytes, room: room), line.expected)
  }

  @Test(arguments: cases)
  func parsersAgree(_ line: Case) {
    var simdjson = SimdjsonLineParser()
    var foundation = FoundationLineParser()
    #expect(parse(&simdjson, line.bytes, room: 0) == parse(&foundation, line.bytes, room: 0))
  }

  static func check(_ result: Result<ExtractedFields, Rejection>, _ expected: Case.Expected) {
    switch (result, expected) {
    case (.success(let fields), .fields(let expectedFields)):
      for field in EventField.allCases {
        #expect(fields[field] == expectedFields[field], "\(field)")
      }
    case (.failure(let rejection), .rejected(let reason)):
      #expect(rejection.reason == reason)
    default:
      Issue.record("got \(Self.summary(result)), expected \(expected)")
    }
  }

  // MARK: - Details

  @Test func fieldOrderMatchesTheShim() {
    #expect(PP_FIELD_COUNT == EventField.allCases.count)
    for field in EventField.allCases {
      #expect(pp_field_key(field.rawValue).map { String(cString: $0) } == field.key)
    }
  }

  @Test(arguments: [
    ("[1]", "an array"), ("\"s\"", "a string"), ("1", "a number"), ("true", "a boolean"), ("null", "null"),
  ])
  func rejectionMessagesNameTheRootType(line: String, name: String) {
    var simdjson = SimdjsonLineParser()
    var foundation = FoundationLineParser()
    let expected = Result<ExtractedFields, Rejection>.failure(
      Rejection(.notAnObject, "the line is \(name), not a JSON object"))
    #expect(parse(&simdjson, Array(line.utf8), room: 0) == expected)
    #expect(parse(&foundation, Array(line.utf8), room: 0) == expected)
  }

  @Test func emptyBufferWithoutAddress() {
    var simdjson = SimdjsonLineParser()
    var foundation = FoundationLineParser()
    let empty = UnsafeRawBufferPointer(start: nil, count: 0)
    #expect(simdjson.extractFields(empty, readableCount: 0) == .failure(LineRejection.notJSON))
    #expect(foundation.extractFields(empty, readableCount: 0) == .failure(LineRejection.notJSON))
  }

  /// Strings point into the parser's arena: the next line must not change an earlier result, and a
  /// short line after a huge one (buffers given back) still parses.
  @Test func resultsSurviveTheNextLine() {
    var parser = SimdjsonLineParser()
    let first = parse(&parser, Array(#"{"type":"first","text":"\u00e4 one"}"#.utf8), room: 64)
    let huge = String(repeating: "x", count: 9 << 20)
    let second = parse(&parser, Array("{\"text\":\"\(huge)\"}".utf8), room: 0)
    let third = parse(&parser, Array(#"{"type":"third"}"#.utf8), room: 0)
    #expect(first.fieldsOrNil?[.text] == .string("ä one"))
    #expect(second.fieldsOrNil?[.text] == .string(huge))
    #expect(third.fieldsOrNil?[.type] == .string("third"))
    #expect(first.fieldsOrNil?[.type] == .string("first"))
  }

  /// A copy gets its own simdjson handle on first use; both keep working.
  @Test func copiesAreIndependent() {
    var original = SimdjsonLineParser()
    var copy = original
    let a = parse(&original, Array(#"{"type":"a"}"#.utf8), room: 0)
    let b = parse(&copy, Array(#"{"type":"b"}"#.utf8), room: 0)
    #expect(a.fieldsOrNil?[.type] == .string("a"))
    #expect(b.fieldsOrNil?[.type] == .string("b"))
  }

  // MARK: - Fuzz

  /// Random valid lines, and mutations of them (byte flips, truncations, insertions of `{`, `"`,
  /// `\`, 0xFF, deletions, duplicated spans), and byte soup: neither parser crashes, both agree on
  /// every line, and every unmutated line parses.
  @Test func fuzzBothParsersAgree() {
    var rng = SplitMix64(seed: 0x5EED_2026_1120)
    var simdjson = SimdjsonLineParser()
    var foundation = FoundationLineParser()
    var disagreements = 0
    var accepted = 0
    let iterations = 8_000
    for iteration in 0..<iterations {
      var line = Array(RandomJSON.line(using: &rng).utf8)
      let mutated = iteration % 5 != 0
      if iteration % 25 == 1 {
        line = RandomJSON.byteSoup(using: &rng)
      } else if mutated {
        for _ in 0..<Int.random(in: 1...3, using: &rng) { RandomJSON.mutate(&line, using: &rng) }
      }
      let room = [0, 3, 64].randomElement(using: &rng)!
      let fast = parse(&simdjson, line, room: room)
      let reference = parse(&foundation, line, room: room)
      if fast != reference {
        disagreements += 1
        if disagreements <= 10 {
          Issue.record(
            "parsers disagree on \(Self.escaped(line)): simdjson \(Self.summary(fast)), foundation \(Self.summary(reference))"
          )
        }
      }
      if !mutated && iteration % 25 != 1 {
        #expect(fast.fieldsOrNil != nil, "valid line rejected: \(Self.escaped(line))")
      }
      if case .success = fast { accepted += 1 }
    }
    #expect(disagreements == 0)
    #expect(accepted > iterations / 5)  // unmutated lines, and mutations that stay valid
  }

  // MARK: - Helpers

  static func summary(_ result: Result<ExtractedFields, Rejection>) -> String {
    switch result {
    case .success(let fields):
      let present = EventField.allCases.compactMap { field in
        fields[field].map { "\(field.path)=\($0)" }
      }
      return "fields(\(present.joined(separator: ", ").prefix(500)))"
    case .failure(let rejection):
      return rejection.description
    }
  }

  static func escaped(_ bytes: [UInt8]) -> String {
    let shown = bytes.prefix(300).map { byte -> String in
      (0x20..<0x7F).contains(byte) && byte != UInt8(ascii: "\\")
        ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }.joined()
    return "\"\(shown)\"" + (bytes.count > 300 ? "… (\(bytes.count) bytes)" : "")
  }
}

/// Runs `parser` on `bytes` held in a buffer with exactly `room` readable bytes after them (filled
/// with `"}` so a parser that reads past the line's end would notice).
func parse<Parser: EventLineParser>(
  _ parser: inout Parser, _ bytes: [UInt8], room: Int
) -> Result<ExtractedFields, Rejection> {
  let buffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: max(bytes.count + room, 1), alignment: 1)
  defer { buffer.deallocate() }
  buffer.copyBytes(from: bytes)
  for index in bytes.count..<(bytes.count + room) {
    buffer[index] = index.isMultiple(of: 2) ? UInt8(ascii: "\"") : UInt8(ascii: "}")
  }
  return parser.extractFields(
    UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count]), readableCount: bytes.count + room)
}

extension Result where Success == ExtractedFields {
  var fieldsOrNil: ExtractedFields? {
    if case .success(let fields) = self { fields } else { nil }
  }
}

/// Random JSON for the fuzz test: event-like objects with known and unknown keys, escapes,
/// numbers of every form, nesting and random whitespace.
enum RandomJSON {
  static let knownKeys = EventField.allCases.map(\.key)
  static let types = ["pull_start", "pull_move", "label", "indicator_shown", "load_complete"]

  static func line<G: RandomNumberGenerator>(using rng: inout G) -> String {
    var members = [
      (#""event_id""#, string(using: &rng)),
      (#""type""#, "\"\(types.randomElement(using: &rng)!)\""),
      (#""ts""#, number(using: &rng)),
    ]
    for _ in 0..<Int.random(in: 0...8, using: &rng) {
      let key =
        Bool.random(using: &rng)
        ? "\"\(knownKeys.randomElement(using: &rng)!)\"" : string(using: &rng)
      let value =
        key == #""indicator""# && Bool.random(using: &rng)
        ? indicator(using: &rng) : value(depth: 0, using: &rng)
      members.append((key, value))
    }
    members.shuffle(using: &rng)
    let body = members.map { "\($0.0)\(space(&rng)):\(space(&rng))\($0.1)" }
      .joined(separator: "\(space(&rng)),\(space(&rng))")
    return "\(space(&rng)){\(space(&rng))\(body)\(space(&rng))}\(space(&rng))"
  }

  static func indicator<G: RandomNumberGenerator>(using rng: inout G) -> String {
    let members = ["kind", "count", "stagger_ms", "cycle_ms", "other"].filter { _ in
      Int.random(in: 0..<4, using: &rng) != 0
    }
    return "{"
      + members.map { "\"\($0)\":\(value(depth: 2, using: &rng))" }.joined(separator: ",") + "}"
  }

  static func value<G: RandomNumberGenerator>(depth: Int, using rng: inout G) -> String {
    switch Int.random(in: 0..<(depth < 4 ? 9 : 6), using: &rng) {
    case 0, 1: return string(using: &rng)
    case 2, 3: return number(using: &rng)
    case 4: return ["true", "false", "null"].randomElement(using: &rng)!
    case 5: return string(using: &rng)
    case 6, 7:
      let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        value(depth: depth + 1, using: &rng)
      }
      return "[\(items.joined(separator: ","))]"
    default:
      let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        "\(string(using: &rng)):\(value(depth: depth + 1, using: &rng))"
      }
      return "{\(items.joined(separator: ","))}"
    }
  }

  static let pieces = [
    "a", "Z", "0", " ", "pull", "_", "ä", "中", "😀", "é", "e\u{301}", "\\\"", "\\\\", "\\/", "\\b",
    "\\f", "\\n", "\\r", "\\t", "\\u00e4", "\\u0000", "\\u001F", "\\uFFFF", "\\ud83d\\ude00",
    "\\uDBFF\\uDFFF", "\u{7F}", "\u{2028}", "\u{FEFF}", "\u{FFFE}", ",", ":", "{", "}", "[", "]",
  ]

  static func string<G: RandomNumberGenerator>(using rng: inout G) -> String {
    let count = Int.random(in: 0...6, using: &rng)
    return "\"" + (0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined() + "\""
  }

  static func number<G: RandomNumberGenerator>(using rng: inout G) -> String {
    func digits(_ range: ClosedRange<Int>, _ rng: inout G) -> String {
      let count = Int.random(in: range, using: &rng)
      var text = String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<max(count, 1) { text += String(Int.random(in: 0...9, using: &rng)) }
      return text
    }
    let sign = Int.random(in: 0..<4, using: &rng) == 0 ? "-" : ""
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: return sign + "0"
    case 1: return sign + digits(1...18, &rng)
    case 2: return sign + digits(1...13, &rng) + "." + digits(1...20, &rng)
    case 3:
      let exponent = Int.random(in: -330...305, using: &rng)
      return sign + digits(1...3, &rng) + "." + digits(1...17, &rng)
        + ["e", "E"].randomElement(using: &rng)!
        + (exponent < 0 ? "-" : ["", "+"].randomElement(using: &rng)!) + String(abs(exponent))
    case 4: return sign + "0." + digits(1...30, &rng)
    default: return String(UInt64.random(in: 0...UInt64.max, using: &rng))
    }
  }

  static func space<G: RandomNumberGenerator>(_ rng: inout G) -> String {
    switch Int.random(in: 0..<12, using: &rng) {
    case 0: " "
    case 1: "\t "
    case 2: "\r"
    case 3: " \n"
    default: ""
    }
  }

  static let inserted: [[UInt8]] = [
    [UInt8(ascii: "{")], [UInt8(ascii: "\"")], [UInt8(ascii: "\\")], [0xFF], [UInt8(ascii: "}")],
    [UInt8(ascii: ",")], [UInt8(ascii: "]")], [0], [0xC3], [0xE2, 0x82], [0x01], Array("NaN".utf8),
    Array("\\u".utf8), Array("\\ud800".utf8), Array("-".utf8), Array("e9".utf8),
    Array("1e400".utf8), Array("99999999999999999999".utf8), [0xEF, 0xBB, 0xBF],
  ]

  static func mutate<G: RandomNumberGenerator>(_ line: inout [UInt8], using rng: inout G) {
    guard !line.isEmpty else {
      line = inserted.randomElement(using: &rng)!
      return
    }
    let at = Int.random(in: 0..<line.count, using: &rng)
    switch Int.random(in: 0..<7, using: &rng) {
    case 0: line[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
    case 1: line[at] = UInt8.random(in: 0...255, using: &rng)
    case 2: line.removeSubrange(Int.random(in: 0..<line.count, using: &rng)...)
    case 3, 4: line.insert(contentsOf: inserted.randomElement(using: &rng)!, at: at)
    case 5: line.removeSubrange(at..<min(line.count, at + Int.random(in: 1...4, using: &rng)))
    default:
      let end = min(line.count, at + Int.random(in: 1...12, using: &rng))
      line.insert(contentsOf: line[at..<end], at: Int.random(in: 0...line.count, using: &rng))
    }
  }

  static func byteSoup<G: RandomNumberGenerator>(using rng: inout G) -> [UInt8] {
    let alphabet = Array(#"{}[]":,\ 01-.eEtrufalsn"#.utf8) + [0xFF, 0xC3, 0xA4, 0x00, 0x0A]
    return (0..<Int.random(in: 0...40, using: &rng)).map { _ in
      alphabet.randomElement(using: &rng)!
    }
  }
}
