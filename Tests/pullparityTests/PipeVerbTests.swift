import Foundation
import PullParityStore
import PullParityTestSupport
import Testing

/// `decode`, `derive` and `load`: the pipe verbs a distributed run is built from
/// (docs/distributed-formats.md).
@Suite struct PipeVerbTests {
  static let event =
    #"{"event_id":"e1","session_id":"s1","ts":1794970800000,"platform":"pwa","app":"padel","type":"pull_start"}"#
  static let release =
    #"{"event_id":"e2","session_id":"s1","ts":1794970800100,"platform":"pwa","app":"padel","type":"release","distance":30}"#

  static func json(_ line: Substring) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
  }

  /// The 15 fields of a line of decode's output by name (docs/distributed-formats.md): an empty
  /// field is absent, `~…` is base64 of the text.
  static let decodedFields = [
    "kind", "source", "offset", "line", "event_id", "session_id", "ts_ms", "seq", "type", "platform", "app",
    "category", "reason", "raw_hex", "raw",
  ]

  static func decoded(_ line: Substring) throws -> [String: String] {
    let values = line.split(separator: "\t", maxSplits: 14, omittingEmptySubsequences: false)
    try #require(values.count == decodedFields.count, "not 15 fields: \(line)")
    var fields: [String: String] = [:]
    for (name, value) in zip(decodedFields, values) where !value.isEmpty {
      if value.hasPrefix("~") {
        let bytes = try #require(Data(base64Encoded: String(value.dropFirst())), "bad base64 in \(name)")
        fields[name] = String(decoding: bytes, as: UTF8.self)
      } else {
        fields[name] = String(value)
      }
    }
    return fields
  }

  @Test(arguments: [
    ("logs/a.jsonl\t0\t1\t" + event, "event", nil as String?, nil as String?),
    ("logs/a.jsonl\t120\t2\tgarbage", "rejected", "not_json", "the line is not valid JSON"),
    ("logs/a.jsonl\t128\t3\t", "blank", nil, nil),
    ("logs/a.jsonl\t129\t\t{\"event_id\":\"x\"}", "rejected", "missing_field", "missing field `session_id`"),
  ])
  func decodeWritesOneLineWithItsOrigin(input: String, kind: String, category: String?, reason: String?) throws {
    let run = try CommandRun.pullparity(["decode"], stdin: Data((input + "\n").utf8))
    #expect(run.exitCode == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    try #require(lines.count == 1)
    let out = try Self.decoded(lines[0])
    let fields = input.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
    #expect(out["kind"] == kind)
    #expect(out["source"] == "logs/a.jsonl")
    #expect(out["offset"] == String(fields[1]))
    #expect(out["line"] == (fields[2].isEmpty ? nil : String(fields[2])))
    #expect(out["category"] == category)
    if let reason { #expect(out["reason"]?.contains(reason) == true, "\(out)") }
    if kind == "event" {
      #expect(out["raw"] == Self.event)
      #expect(out["event_id"] == "e1")
      #expect(out["session_id"] == "s1")
      #expect(out["ts_ms"].flatMap(Double.init) == 1_794_970_800_000)
      #expect(out["seq"] == nil)
      #expect(out["type"] == "pull_start")
      #expect(out["platform"] == "pwa" && out["app"] == "padel")
    }
  }

  /// A raw line over ingest's default cap is refused as ingest refuses it: `too_long`, its first
  /// KiB kept, whatever the pipe's own line length.
  @Test func decodeRefusesALineIngestWouldRefuseAsTooLong() throws {
    let raw = #"{"event_id":"big","pad":""# + String(repeating: "x", count: 16 << 20) + #""}"#
    let run = try CommandRun.pullparity(["decode"], stdin: Data("a.jsonl\t0\t1\t\(raw)\n".utf8))
    #expect(run.exitCode == 0, "\(run.stderr)")
    let out = try Self.decoded(run.stdout.split(separator: "\n")[0])
    #expect(out["category"] == "too_long")
    #expect(out["reason"]?.contains("\(raw.utf8.count) bytes, longer than the limit of 16777216") == true)
    #expect(out["raw"] == String(raw.prefix(1024)))
  }

  /// What acts on a terminal (a C1 CSI, a right-to-left override) or would split a field (a tab,
  /// a line end from a JSON escape) leaves decode as base64 and derive as JSON escapes, and reads
  /// back to the very same text; text that starts like an encoded field is encoded too.
  @Test func pipeVerbsKeepControlsAndTabsInertAndExact() throws {
    let app = "pad\u{9B}2J\u{202E}el"
    let raw = Self.event.replacingOccurrences(of: #""app":"padel""#, with: "\"app\":\"\(app)\"")
      .replacingOccurrences(of: #""e1""#, with: #""~e1\t\n""#).replacingOccurrences(of: ",", with: ",\t")
    let input = Data("a.jsonl\t0\t1\t\(raw)\n".utf8)
    let decoded = try CommandRun.pullparity(["decode"], stdin: input)
    let derived = try CommandRun.pullparity(["derive"], stdin: input)
    for run in [decoded, derived] {
      #expect(run.exitCode == 0, "\(run.stderr)")
      #expect(!run.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
    }
    #expect(derived.stdout.contains(#"pad\u009b2J\u202eel"#), "\(derived.stdout)")
    let lines = decoded.stdout.split(separator: "\n")
    try #require(lines.count == 1)
    let out = try Self.decoded(lines[0])
    #expect(out["raw"] == raw)
    #expect(out["app"] == app)
    #expect(out["event_id"] == "~e1\t\n")
    let session = try #require(try Self.json(derived.stdout.split(separator: "\n")[0])["row"] as? [String: Any])
    #expect(session["app"] as? String == app)
  }

  @Test func decodeKeepsBytesThatAreNotUTF8AsHex() throws {
    var input = Data("a.jsonl\t0\t1\t{\"x\":\"".utf8)
    input.append(contentsOf: [0xFF, 0x22, 0x7D, 0x0A])
    let run = try CommandRun.pullparity(["decode"], stdin: input)
    let out = try Self.decoded(run.stdout.split(separator: "\n")[0])
    #expect(out["category"] == "invalid_utf8")
    #expect(out["raw_hex"] == "7b2278223a22ff227d")
    #expect(out["raw"] == nil)
  }

  @Test(arguments: [
    ("no tabs at all", "-:1: expected source, offset, line and the raw line separated by tabs"),
    ("a.jsonl\tten\t1\t{}", "-:1: the offset (field 2) must be a whole number ≥ 0, got \"ten\""),
    ("a.jsonl\t0\t0\t{}", "-:1: the line (field 3) must be empty or a whole number ≥ 1, got \"0\""),
    ("\t0\t1\t{}", "-:1: the source (field 1) is empty"),
  ])
  func decodeStopsOnInputNotInItsFormat(input: String, message: String) throws {
    let run = try CommandRun.pullparity(["decode"], stdin: Data((input + "\n").utf8))
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  /// derive reads decode's input, and refuses a line that is not a raw event with its origin.
  @Test(arguments: [
    ("a.jsonl\t0\t1\tgarbage", "-:1: the raw line (field 4) is not an event: not_json: the line is not valid JSON"),
    ("a.jsonl\t0\t1\t", "-:1: the raw line (field 4) is empty; derive reads events only"),
    ("a.jsonl\tten\t1\t{}", "-:1: the offset (field 2) must be a whole number ≥ 0, got \"ten\""),
    ("\t0\t1\t{}", "-:1: a line with an empty source must be a context line"),
  ])
  func deriveStopsOnInputNotInItsFormat(input: String, message: String) throws {
    let run = try CommandRun.pullparity(["derive"], stdin: Data((input + "\n").utf8))
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  @Test func deriveWritesTheSessionRowsTheViolationsAndTheProfile() throws {
    let run = try CommandRun.pullparity(
      ["derive"], stdin: Data("a.jsonl\t0\t1\t\(Self.event)\na.jsonl\t99\t2\t\(Self.release)\n".utf8))
    #expect(run.exitCode == 0, "\(run.stderr)")
    let lines = try run.stdout.split(separator: "\n").map(Self.json)
    #expect(lines.map { $0["table"] as? String } == ["sessions", "profiles"])
    let session = try #require(lines[0]["row"] as? [String: Any])
    #expect(session["session_id"] as? String == "s1")
    #expect(session["profile"] as? String == "padel")
    #expect(session["profile_version"] as? Int == 2)
    #expect(session["event_count"] as? Int == 2)
    #expect(session["outcome"] as? String == "cancelled")
    let profile = try #require(lines[1]["row"] as? [String: Any])
    #expect(profile["content_hash"] as? String == "d8cbc6caf7bba031")
  }

  @Test func deriveRefusesASessionWhoseEventsAreApart() throws {
    let other = Self.event.replacingOccurrences(of: "\"s1\"", with: "\"s2\"").replacingOccurrences(
      of: "\"e1\"", with: "\"e3\"")
    let run = try CommandRun.pullparity(
      ["derive"], stdin: Data("a\t0\t1\t\(Self.event)\na\t1\t2\t\(other)\na\t2\t3\t\(Self.release)\n".utf8))
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("-:3: session \"s1\" appears again after other sessions"), "\(run.stderr)")
  }

  /// The session id "é" spelled as one code point (first) and as "e" + U+0301: the same text to
  /// `String`, two ids to the contract, which compares ids byte for byte.
  static let lookAlikes = ["\u{E9}", "e\u{301}"]

  /// `event` and `release` as two sessions whose ids only look the same.
  static var lookAlikeInput: String {
    let first = Self.event.replacingOccurrences(of: "\"s1\"", with: "\"\(lookAlikes[0])\"")
    let second = Self.release.replacingOccurrences(of: "\"s1\"", with: "\"\(lookAlikes[1])\"")
    return "a.jsonl\t0\t1\t\(first)\na.jsonl\t99\t2\t\(second)\n"
  }

  @Test func deriveKeepsSessionsWhoseIdsOnlyLookTheSameApart() throws {
    let run = try CommandRun.pullparity(["derive"], stdin: Data(Self.lookAlikeInput.utf8))
    #expect(run.exitCode == 0, "\(run.stderr)")
    let sessions = try run.stdout.split(separator: "\n").map(Self.json).filter { $0["table"] as? String == "sessions" }
    let ids = sessions.compactMap { ($0["row"] as? [String: Any])?["session_id"] as? String }
    #expect(ids.map { Array($0.utf8) } == Self.lookAlikes.map { Array($0.utf8) })
  }

  @Test func loadKeepsSessionsWhoseIdsOnlyLookTheSameApart() throws {
    let dir = try TemporaryDirectory()
    let input = Self.lookAlikeInput + "a.jsonl\t200\t3\toops\n"
    let runDirectory = try Self.runDirectory(in: dir, sessions: 2, input: input)
    let run = try CommandRun.pullparity(["load", runDirectory, "--db", dir.path("a.sqlite")])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let refs = try CommandRun.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"),
      [dir.path("a.sqlite"), "SELECT count(DISTINCT session_ref) FROM session_blocks; SELECT count(*) FROM sessions"])
    #expect(refs.stdout == "2\n2\n", "\(refs.stdout)")
  }

  /// A run directory written by hand from decode and derive, as the Spark job writes it (no
  /// deduplication: `input` holds each event once). `sessions`: the summary's count, when it
  /// is to disagree with the tables.
  static func runDirectory(
    in dir: TemporaryDirectory, name: String = "run", sessions: Int? = nil,
    input: String = "a.jsonl\t0\t1\t\(Self.event)\na.jsonl\t99\t2\t\(Self.release)\na.jsonl\t200\t3\toops\n",
    inputErrors: String = ""
  ) throws -> String {
    let decoded = try CommandRun.pullparity(["decode"], stdin: Data(input.utf8))
    let events = input.split(separator: "\n").filter { !$0.hasSuffix("oops") }.joined(separator: "\n") + "\n"
    let derived = try CommandRun.pullparity(["derive"], stdin: Data(events.utf8))
    var tables: [String: [String]] = [:]
    var sources: [String] = []
    for line in decoded.stdout.split(separator: "\n") {
      var row: [String: Any] = try Self.decoded(line)
      for column in ["offset", "line", "seq"] { row[column] = (row[column] as? String).flatMap { Int($0) } }
      row["ts_ms"] = (row["ts_ms"] as? String).flatMap { Double($0) }
      row["byte_offset"] = row["offset"]
      if let source = row["source"] as? String, !sources.contains(source) { sources.append(source) }
      let table = row["kind"] as? String == "event" ? "events" : "quarantine"
      let data = try JSONSerialization.data(withJSONObject: row)
      tables[table, default: []].append(String(decoding: data, as: UTF8.self))
    }
    for line in derived.stdout.split(separator: "\n") {
      let object = try Self.json(line)
      let data = try JSONSerialization.data(withJSONObject: object["row"]!)
      tables[try #require(object["table"] as? String), default: []].append(String(decoding: data, as: UTF8.self))
    }
    for table in ["events", "sessions", "violations", "quarantine", "profiles"] {
      try FileManager.default.createDirectory(
        atPath: dir.path("\(name)/json/\(table)"), withIntermediateDirectories: true)
      _ = try dir.write("\(name)/json/\(table)/part-00000.json", (tables[table] ?? []).joined(separator: "\n") + "\n")
    }
    let count = { (table: String) in tables[table]?.count ?? 0 }
    let names = String(decoding: try JSONSerialization.data(withJSONObject: sources), as: UTF8.self)
    _ = try dir.write(
      "\(name)/summary.json",
      """
      {"format": "pullparity-run", "format_version": 1, "sources": \(names), "lines_read": \(count("events") + count("quarantine")),
       "blank_lines": 0, "events_stored": \(count("events")), "duplicates": 0, "conflicts": 0,
       "quarantined": \(count("quarantine")), "already_quarantined": 0, "sessions_derived": \(sessions ?? count("sessions")),\(inputErrors)
       "tool_version": "0.1.0", "engine": "hand"}
      """)
    return dir.path(name)
  }

  /// `source⇥offset⇥line⇥raw` lines of a file holding `lines`, with their real offsets.
  static func pipeInput(_ source: String, _ lines: [String]) -> String {
    var offset = 0
    var input = ""
    for (index, line) in lines.enumerated() {
      input += "\(source)\t\(offset)\t\(index + 1)\t\(line)\n"
      offset += line.utf8.count + 1
    }
    return input
  }

  @Test func loadPutsARunIntoTheTablesIngestWouldWrite() throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity(["load", try Self.runDirectory(in: dir), "--db", dir.path("a.sqlite")])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("3 lines read, 2 events stored, 0 duplicates, 0 conflicts, 1 quarantined, 1 sessions"))
    let ingested = dir.path("i.sqlite")
    _ = try dir.write("a.jsonl", "\(Self.event)\n\(Self.release)\noops\n")
    _ = try CommandRun.pullparity(["ingest", "--quiet", "--db", ingested, "a.jsonl"], currentDirectory: dir.url)
    let session = try CommandRun.pullparity(["session", "s1", "--db", dir.path("a.sqlite")])
    let expected = try CommandRun.pullparity(["session", "s1", "--db", ingested])
    #expect(session.exitCode == 0)
    #expect(session.stdout == expected.stdout)
  }

  /// A run that could not read an input to its end (a damaged gzip file) holds the others: load
  /// stores it as ingest would, a completed run, and ends as ingest does, with 2 naming the input.
  @Test func loadOfARunWithADamagedInputStoresItAndExits2NamingIt() throws {
    let dir = try TemporaryDirectory()
    let damage =
      "b.jsonl.gz: the gzip stream is truncated: the lines before the cut were read, the cut line and "
      + "the rest are missing"
    let errors = #" "input_errors": ["\#(damage)", "c\u001b.gz: cut"],"#
    let run = try CommandRun.pullparity(
      ["load", try Self.runDirectory(in: dir, inputErrors: errors), "--db", dir.path("a.sqlite")])
    #expect(run.exitCode == 2)
    #expect(run.stderr == "Error: \(damage)\nError: c\\u{1b}.gz: cut\n", "\(run.stderr)")
    #expect(run.stdout.contains("3 lines read, 2 events stored"), "\(run.stdout)")
    let db = try PullParityDatabase(path: dir.path("a.sqlite"))
    let status = try DatabaseDump.rows(db, table: "ingest_runs", columns: "status", order: "run_id")
    #expect(status == [#"[status:"completed"]"#])
    #expect(try DatabaseDump.count(db, "events") == 2)
  }

  @Test func loadRefusesADirectoryWhoseTablesDisagreeWithItsSummary() throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity(
      ["load", try Self.runDirectory(in: dir, sessions: 5), "--db", dir.path("a.sqlite")])
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains(
        dir.path("run/summary.json:1: the summary says 2 events, 5 sessions and 1 quarantined lines; ")
          + "the tables hold 2, 1 and 1"),
      "\(run.stderr)")
  }

  /// A row that is wrong in itself is named by its part file and line, whatever the table.
  @Test(arguments: [
    ("events", "duplicateFirst", "run/json/events/part-00000.json:3: event_id \"e1\" is in the run's events twice"),
    ("sessions", "ghost", "run/json/sessions/part-00000.json:2: session \"ghost\" has no events"),
    (
      "profiles", "otherHash",
      "run/json/profiles/part-00000.json:1: profile padel v2: the definition does not match its content hash"
    ),
  ])
  func loadNamesTheFileAndLineOfABadRow(table: String, damage: String, message: String) throws {
    let dir = try TemporaryDirectory()
    let run = try Self.runDirectory(in: dir)
    let part = run + "/json/\(table)/part-00000.json"
    var rows = try String(contentsOfFile: part, encoding: .utf8).split(separator: "\n").map(String.init)
    var first = try Self.json(Substring(rows[0]))
    switch damage {
    case "duplicateFirst": rows.append(rows[0])
    case "ghost":
      first["session_id"] = "ghost"
      rows.append(String(decoding: try JSONSerialization.data(withJSONObject: first), as: UTF8.self))
    default:
      first["content_hash"] = "0000000000000000"
      rows[0] = String(decoding: try JSONSerialization.data(withJSONObject: first), as: UTF8.self)
    }
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: part))
    let load = try CommandRun.pullparity(["load", run, "--db", dir.path("a.sqlite")])
    #expect(load.exitCode == 2)
    #expect(load.stderr.contains(dir.path(message)), "\(load.stderr)")
  }

  /// Day 2's run loaded into day 1's database, by ingest's rules: its session goes on from day
  /// 1's events (derived again from both), an event day 1 stored with other bytes is a conflict,
  /// a bad line quarantined on day 1 is not added again. The tables are an ingest's of both
  /// days' files; loading day 2 again stores nothing new.
  @Test func loadAddsARunToADatabaseAsIngestWould() throws {
    let dir = try TemporaryDirectory()
    let other = Self.event.replacingOccurrences(of: "1794970800000", with: "1794970800001")
    let days = [("a.jsonl", [Self.event, "oops"]), ("b.jsonl", [Self.release, other, "oops"])]
    let db = dir.path("a.sqlite")
    for (index, (file, lines)) in days.enumerated() {
      _ = try dir.write(file, lines.joined(separator: "\n") + "\n")
      let run = try Self.runDirectory(in: dir, name: "day\(index + 1)", input: Self.pipeInput(file, lines))
      let load = try CommandRun.pullparity(["load", run, "--db", db])
      #expect(load.exitCode == 0, "\(load.stderr)")
    }
    let ingested = dir.path("i.sqlite")
    let ingest = try CommandRun.pullparity(
      ["ingest", "--quiet", "--db", ingested, "a.jsonl", "b.jsonl"], currentDirectory: dir.url)
    #expect(ingest.exitCode == 0, "\(ingest.stderr)")
    let (loaded, expected) = (try PullParityDatabase(path: db), try PullParityDatabase(path: ingested))
    for (table, columns, order) in [
      ("sessions", "session_id, outcome, event_count, started_at_ms, ended_at_ms, violation_count", "session_id"),
      ("violations", "session_id, ordinal, kind, ts_ms", "session_id, ordinal"),
      ("quarantine", "source, line, byte_offset, category, reason, raw, event_id", "source, byte_offset"),
    ] {
      let got = try DatabaseDump.rows(loaded, table: table, columns: columns, order: order)
      #expect(got == (try DatabaseDump.rows(expected, table: table, columns: columns, order: order)), "\(table)")
    }
    #expect(
      try DatabaseDump.rows(loaded, table: "quarantine", columns: "category", order: "source") == [
        #"[category:"not_json"]"#, #"[category:"conflict"]"#,
      ])
    let export = ["export", "--with-origin", "--db"]
    #expect(try CommandRun.pullparity(export + [db]).stdout == (try CommandRun.pullparity(export + [ingested]).stdout))
    let session = try CommandRun.pullparity(["session", "s1", "--db", db])
    #expect(session.stdout == (try CommandRun.pullparity(["session", "s1", "--db", ingested])).stdout)

    let again = try CommandRun.pullparity(["load", dir.path("day2"), "--db", db])
    #expect(again.exitCode == 0, "\(again.stderr)")
    #expect(
      again.stdout.contains(
        "3 lines read, 0 events stored, 1 duplicates, 0 conflicts, 0 quarantined, "
          + "2 already quarantined, 0 sessions"), "\(again.stdout)")
    #expect(try DatabaseDump.count(loaded, "events") == 2)
    #expect(try DatabaseDump.count(loaded, "quarantine") == 2)
    let runs = try DatabaseDump.rows(
      loaded, table: "ingest_runs", columns: "status, events_stored, sessions_derived", order: "run_id")
    #expect(runs.count == 3)
  }
}
