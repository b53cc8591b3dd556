import Foundation
import PullParityTestSupport
import Testing

/// Text from the logs (apps, screens, labels, ids, file names, bad lines) never reaches a
/// terminal raw: escape sequences in it are shown as `\u{…}` by every command and format.
@Suite struct TerminalEscapingTests {
  /// An OSC that retitles the window, then a one-character C1 CSI and a right-to-left override.
  static let evilApp = "\u{1B}]0;pwned\u{07}evil\u{9B}2J\u{202E}"
  static let formulaApp = "=cmd|'/C calc'!A0<script>alert(1)</script>"
  static let logName = "hostile\u{1B}[31m.jsonl"

  /// One complete refresh as JSON lines, with the given fields on every event.
  static func session(_ id: String, app: String, platform: String, at t: Double, fields: [String: String] = [:]) throws
    -> [String]
  {
    let events: [(Double, [String: Any])] = [
      (0, ["type": "pull_start"]),
      (30, ["type": "label", "text": "\u{1B}[31mRED\u{1B}[0m\u{1B}]0;title\u{07}", "state": "pulling"]),
      (100, ["type": "pull_move", "distance": 40]), (200, ["type": "release", "distance": 45]),
      (210, ["type": "refresh_start", "trigger": "pull"]), (220, ["type": "indicator_shown"]),
      (400, ["type": "load_complete", "ok": false, "error": "\u{1B}[2Jgone"]), (800, ["type": "indicator_hidden"]),
    ]
    return try events.enumerated().map { index, event in
      var object: [String: Any] = [
        "event_id": "\(id)-\(index)", "session_id": id, "ts": 1_795_000_000_000 + t + event.0, "platform": platform,
        "app": app,
      ]
      object.merge(event.1) { $1 }
      object.merge(fields) { $1 }
      return try JSONLine.sorted(object)
    }
  }

  /// A database whose apps, screens, labels, versions, file name and a bad line carry escape
  /// sequences; and what its ingest printed.
  static var directory: URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("pullparity-hostile-\(ProcessInfo.processInfo.processIdentifier)")
  }

  /// Made once per test process (several tests read it) and removed when the process exits.
  static let database = Result { try makeDatabase() }

  static func makeDatabase() throws -> (path: String, ingest: CommandRun) {
    let dir = directory
    atexit { try? FileManager.default.removeItem(at: TerminalEscapingTests.directory) }
    var lines: [String] = []
    for (i, platform) in ["ios", "pwa"].enumerated() {
      lines += try session("evil-\(platform)", app: evilApp, platform: platform, at: Double(i) * 10_000)
    }
    lines += try session("formula-1", app: formulaApp, platform: "ios", at: 30_000)
    lines += try session(
      "hostile-1", app: "padel", platform: "ios", at: 40_000,
      fields: ["screen": "\u{1B}[2Jfeed", "app_version": "3.8\u{1B}[5m"])
    lines.append("garbage\u{1B}]0;bad line\u{07}")
    let log = dir.appendingPathComponent(logName).path
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
    let db = dir.appendingPathComponent("hostile.sqlite").path
    let ingest = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log])
    return (db, ingest)
  }

  /// Control characters other than line ends, and bidirectional controls: what would act on a
  /// terminal.
  static func rawControls(_ text: String) -> [UInt32] {
    text.unicodeScalars.map(\.value).filter {
      ($0 < 0x20 && $0 != 0x0A && $0 != 0x0D) || (0x7F...0x9F).contains($0) || (0x202A...0x202E).contains($0)
        || (0x2066...0x2069).contains($0)
    }
  }

  @Test func ingestNamesTheBadLineEscaped() throws {
    let run = try Self.database.get().ingest
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(Self.rawControls(run.stdout).isEmpty)
    #expect(run.stdout.contains("hostile\\u{1b}[31m.jsonl:33: not_json"), "\(run.stdout)")
  }

  @Test(arguments: [
    (["report"], "\\u{1b}]0;pwned\\u{7}evil"),
    (["report", "--format", "markdown"], "\\\\u\\{1b\\}\\]0;pwned\\\\u\\{7\\}evil"),
    (["report", "--format", "csv"], "\\u{1b}]0;pwned\\u{7}evil"),
    (["report", "--format", "json"], "\\u001b]0;pwned\\u0007evil\\u009b2J\\u202e"),
    (["qa", "--format", "json"], "\\u001b]0;pwned\\u0007evil\\u009b2J\\u202e"),
    (["report", "--format", "html"], "\\u{1b}]0;pwned\\u{7}evil"),
    (["report", "--format", "html", "--by", "screen", "--app", "padel"], "\\u{1b}[2Jfeed"),
    (["report", "--by", "screen", "--app", "padel"], "\\u{1b}[2Jfeed"),
    (["report", "--by", "app_version", "--app", "padel"], "3.8\\u{1b}[5m"),
    (["qa"], "\\u{1b}]0;pwned\\u{7}evil"),
    (["session", "hostile-1"], "pulling: \\u{1b}[31mRED\\u{1b}[0m\\u{1b}]0;title\\u{7}"),
    (["session", "hostile-1"], "screen \\u{1b}[2Jfeed"),
    (["session", "hostile-1"], "failed (\\u{1b}[2Jgone)"),
    (
      [
        "compare", "--app", evilApp, "--baseline", "platform=pwa", "--candidate", "platform=ios", "--min-sessions", "1",
      ],
      "\\u{1b}]0;pwned\\u{7}evil"
    ),
    (["quarantine"], "hostile\\u{1b}[31m.jsonl:33: not_json"),
    (["quarantine"], "garbage\\u{1b}]0;bad line\\u{7}"),
    (["runs"], "hostile\\u{1b}[31m.jsonl"),
  ])
  func everyCommandEscapesLogText(arguments: [String], shown: String) throws {
    let run = try CommandRun.pullparity(arguments + ["--db", Self.database.get().path])
    #expect([0, 1].contains(run.exitCode), "\(arguments): \(run.stderr)")
    #expect(Self.rawControls(run.stdout).isEmpty, "\(arguments)")
    #expect(run.stdout.contains(shown), "\(arguments): \(run.stdout)")
  }

  /// Errors quote the database's values too.
  @Test func anEmptySelectionListsKnownAppsEscaped() throws {
    let run = try CommandRun.pullparity(["report", "--app", "nope", "--db", Self.database.get().path])
    #expect(run.exitCode == 2)
    #expect(Self.rawControls(run.stderr).isEmpty)
    #expect(run.stderr.contains("\\u{1b}]0;pwned\\u{7}evil"), "\(run.stderr)")
  }

  /// Every error message goes through the same escaping, whoever wrote it.
  @Test func anErrorNamingAFileEscapesItsName() throws {
    let run = try CommandRun.pullparity([
      "ingest", "--db", Self.database.get().path, "/nonexistent/\u{1B}]0;x\u{07}.jsonl",
    ])
    #expect(run.exitCode == 2)
    #expect(Self.rawControls(run.stderr).isEmpty)
    #expect(run.stderr.contains("cannot open /nonexistent/\\u{1b}]0;x\\u{7}.jsonl"), "\(run.stderr)")
  }

  /// A carriage return or tab in a quoted value would let the rest of the line overwrite the
  /// message; only the message's own line breaks are kept.
  @Test func anErrorKeepsOnlyItsOwnLineBreaks() throws {
    let run = try CommandRun.pullparity(["ingest", "--db", Self.database.get().path, "/nonexistent/a\rb\tc.jsonl"])
    #expect(run.exitCode == 2)
    #expect(!run.stderr.contains("\r") && !run.stderr.contains("\t"), "\(run.stderr.debugDescription)")
    #expect(run.stderr.contains("cannot open /nonexistent/a\\u{d}b\\u{9}c.jsonl"), "\(run.stderr)")
  }

  /// The escapes in JSON are JSON's own: a parser reads the app's name back exactly.
  @Test(arguments: [["report", "--format", "json"], ["qa", "--format", "json"]])
  func jsonKeepsTheValuesExact(arguments: [String]) throws {
    let run = try CommandRun.pullparity(arguments + ["--db", Self.database.get().path])
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    #expect(Self.strings(in: json).contains(Self.evilApp), "\(run.stdout.prefix(400))")
  }

  static func strings(in json: Any) -> [String] {
    switch json {
    case let text as String: [text]
    case let array as [Any]: array.flatMap(strings)
    case let object as [String: Any]: object.keys.map { $0 } + object.values.flatMap(strings)
    default: []
    }
  }

  @Test func htmlEscapesMarkupAndCSVDisarmsFormulas() throws {
    let html = try CommandRun.pullparity(["report", "--format", "html", "--db", Self.database.get().path])
    #expect(html.exitCode == 0)
    #expect(html.stdout.contains("=cmd|&#39;/C calc&#39;!A0&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!html.stdout.contains("<script>alert"))
    let csv = try CommandRun.pullparity(["report", "--format", "csv", "--db", Self.database.get().path])
    let row = try #require(csv.stdout.split(separator: "\r\n").first { $0.contains("cmd|") })
    #expect(row.hasPrefix("'=cmd|'/C calc'!A0<script>alert(1)</script>,"), "\(row)")
    let markdown = try CommandRun.pullparity(["report", "--format", "markdown", "--db", Self.database.get().path])
    #expect(markdown.stdout.contains("=cmd\\|'/C calc'\\!A0\\<script\\>alert\\(1\\)\\</script\\>"))
  }
}
