import Foundation
import PullParityTestSupport
import Testing

/// Names from the logs are keys byte for byte on every path: stored whole, counted into the day
/// digests whole, selected, grouped and looked up whole. A NUL, canonically equivalent spellings
/// and names at the length limit never merge two apps, screens, versions or sessions, and the
/// digest path and `--from-sessions` print the same report.
@Suite struct AdversarialNameTests {
  static let environment = ["SOURCE_DATE_EPOCH": "1795000000"]

  /// Apps, screens and app versions that collide when cut at a NUL, compared as `String`s or
  /// sorted as Unicode; the last app is at the 128-character limit with a NUL inside.
  static let apps = [
    "demo", "demo\u{0}x", "caf\u{E9}", "cafe\u{301}", "\u{202E}gnp\u{0}", "🙂\u{200D}↔️",
    String(repeating: "n", count: 60) + "\u{0}" + String(repeating: "é", count: 67),
  ]
  static let screens = ["scr", "scr\u{0}een", "scr\u{0}xyz", "Feed\u{301}", "Feed"]
  static let appVersions = ["1.0", "1.0\u{0}", "1.0\u{0}beta", "2\u{0}"]

  /// One refresh as JSON lines: held `visibleMs`, on `platform`, with the given fields.
  static func session(
    _ id: String, app: String, platform: String, at t: Double, visibleMs: Double, fields: [String: Any]
  ) throws
    -> [String]
  {
    let events: [(Double, [String: Any])] = [
      (0, ["type": "pull_start"]), (100, ["type": "pull_move", "distance": 40]),
      (150, ["type": "armed", "distance": 40]), (200, ["type": "release", "distance": 45]),
      (210, ["type": "refresh_start", "trigger": "pull"]), (220, ["type": "indicator_shown"]),
      (400, ["type": "load_complete", "ok": true]), (220 + visibleMs, ["type": "indicator_hidden"]),
    ]
    return try events.enumerated().map { index, event in
      var object: [String: Any] = [
        "event_id": "\(id)-\(index)", "session_id": id, "ts": 1_795_000_000_000 + t + event.0, "platform": platform,
        "app": app,
      ]
      object.merge(fields) { $1 }
      object.merge(event.1) { $1 }
      return try JSONLine.sorted(object)
    }
  }

  /// `demo` shows its indicator 400 ms on both platforms, after the load: at parity, within its
  /// rules. `demo\u{0}x` hides it before the load on iOS: a client that sent it would fail
  /// `demo`'s gate if the two were merged.
  /// Every other app gets sessions on every screen and version, with ids that collide too.
  static let database = Result { try makeDatabase() }

  static func makeDatabase() throws -> String {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("pullparity-names-\(ProcessInfo.processInfo.processIdentifier)")
    atexit {
      let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("pullparity-names-\(ProcessInfo.processInfo.processIdentifier)")
      try? FileManager.default.removeItem(at: dir)
    }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var lines: [String] = []
    var t = 0.0
    for (a, app) in apps.enumerated() {
      for platform in ["ios", "pwa"] {
        for i in 0..<(a < 2 ? 36 : 6) {
          let visible = a == 1 && platform == "ios" ? 100.0 : 400
          // Ids that differ only after a NUL, or only in their normalisation.
          let id = i % 2 == 0 ? "s\(a)-\(platform)-\(i / 2)\u{0}a" : "s\(a)-\(platform)-\(i / 2)\u{0}b"
          let fields: [String: Any] = [
            "screen": screens[i % screens.count], "app_version": appVersions[i % appVersions.count],
          ]
          lines += try session(id, app: app, platform: platform, at: t, visibleMs: visible, fields: fields)
          t += 5_000
        }
      }
    }
    lines += try session("caf\u{E9}-id", app: "caf\u{E9}", platform: "ios", at: t, visibleMs: 400, fields: [:])
    lines += try session(
      "cafe\u{301}-id", app: "cafe\u{301}", platform: "ios", at: t + 5_000, visibleMs: 400, fields: [:])
    let log = dir.appendingPathComponent("names.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
    let db = dir.appendingPathComponent("names.sqlite").path
    let ingest = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, log.path])
    try #require(ingest.exitCode == 0, "\(ingest.stderr)")
    return db
  }

  static func run(_ arguments: [String]) throws -> CommandRun {
    try CommandRun.pullparity([arguments[0], "--db", database.get()] + arguments.dropFirst(), environment: environment)
  }

  static let cases: [[String]] =
    ["text", "markdown", "json", "csv"].flatMap { format in
      ["trigger", "screen", "app_version", "all"].map { ["report", "--format", format, "--by", $0] }
    } + [
      ["report", "--app", "demo", "--check"], ["report", "--app", "caf\u{E9}", "--by", "screen"],
      ["report", "--screen", "scr", "--format", "json"], ["report", "--app-version", "1.0", "--by", "app_version"],
      ["qa"], ["qa", "--format", "json"], ["qa", "--app", "demo"],
    ]

  @Test(arguments: cases) func theDigestsAndEverySessionGiveTheSameReport(_ arguments: [String]) throws {
    let fromDigests = try Self.run(arguments)
    let fromSessions = try Self.run(arguments + ["--from-sessions"])
    #expect([0, 1].contains(fromDigests.exitCode), "\(fromDigests.stderr)")
    #expect(fromDigests.exitCode == fromSessions.exitCode)
    #expect(fromDigests.stdout == fromSessions.stdout)
  }

  /// One line per name cannot move sessions into another app's report: `demo` is at parity and
  /// its gate passes, on every path; `demo\u{0}x` is reported apart and fails on its own.
  @Test(arguments: [[], ["--from-sessions"]]) func aNULCannotMergeTwoApps(_ path: [String]) throws {
    let demo = try Self.run(["report", "--app", "demo", "--check", "--format", "json"] + path)
    #expect(demo.exitCode == 0, "\(demo.stdout)")
    let apps = try JSONTree(parsing: demo.stdout)["apps"]
    #expect(try apps.array.map { try $0["app"].string } == ["demo"])
    #expect(try apps[0]["groups"][0]["platforms"].array.map { try $0["sessions"].int } == [36, 36])
    let all = try Self.run(["report", "--check"] + path)
    #expect(all.stdout.contains("demo\\u{0}x pull: parity of visible time, premature hide"), "\(all.stdout)")
    #expect(!all.stdout.contains("demo pull:"), "\(all.stdout)")
  }

  /// Screens and versions that share a prefix up to a NUL, and names that are canonically
  /// equivalent, are groups of their own.
  @Test(arguments: [[], ["--from-sessions"]]) func everyNameIsAGroupOfItsOwn(_ path: [String]) throws {
    let screens = try Self.run(["report", "--app", "demo", "--by", "screen"] + path).stdout
    for screen in ["scr", "scr\\u{0}een", "scr\\u{0}xyz", "Feed", "Feed\u{301}"] {
      #expect(Self.holds(screens, "demo · profile demo v0 · screen \(screen) · reference ios"), "\(screen)")
    }
    let versions = try Self.run(["report", "--app", "demo", "--by", "app_version"] + path).stdout
    for version in ["1.0", "1.0\\u{0}", "1.0\\u{0}beta", "2\\u{0}"] {
      #expect(versions.contains("· app_version \(version) ·"), "\(version)")
    }
    let apps = try Self.run(["report"] + path).stdout
    // Byte for byte: `String.contains` would take either spelling for the other.
    #expect(Self.holds(apps, "caf\u{E9} · profile caf\u{E9} v0"))
    #expect(Self.holds(apps, "cafe\u{301} · profile cafe\u{301} v0"))
  }

  /// A session id with a NUL is named as every output prints it, or by a prefix, and is never
  /// taken for an id that is its prefix up to the NUL.
  @Test(arguments: [
    ("s0-ios-3\\u{0}b", "Session s0-ios-3\\u{0}b\n"), ("s0-ios-3\\u{0}", "matches several sessions"),
    ("S0-IOS-3\\u{0}A", "Session s0-ios-3\\u{0}a\n"), ("caf\u{E9}-id", "Session caf\u{E9}-id\n"),
    ("cafe\u{301}-id", "Session cafe\u{301}-id\n"), ("s0-ios-3", "matches several sessions"),
    ("s0-ios-3\\u{0}c", "no session"),
  ])
  func aSessionIsNamedByItsBytes(_ id: String, _ says: String) throws {
    let run = try Self.run(["session", id])
    let output = run.stdout + run.stderr
    #expect(Self.holds(output, says), "\(output)")
  }

  /// Whether `text` holds the bytes of `part`.
  static func holds(_ text: String, _ part: String) -> Bool {
    Array(text.utf8).contains(Array(part.utf8))
  }
}
