import Foundation
import PullParityTestSupport
import Testing

/// Gates on logs that lack what an item measures: a client that never logs `indicator_shown`,
/// labels or `offset`, a log of pulls alone, and reports where no two platforms meet. Nothing
/// checked is never a pass: the item says "no data", `--require-data` fails on it, and a parity
/// check that compared nothing does not claim parity.
@Suite struct NothingCheckedTests {
  /// A log made from the samples: `sample-events/` files, each line kept or dropped and edited.
  enum Log: String, Sendable, CaseIterable {
    /// The Padel PWA without `indicator_shown`.
    case noIndicatorShown
    /// Padel iOS without labels, beside the PWA as it is.
    case iosWithoutLabels
    /// The Padel PWA's pulls and labels only.
    case pullsOnly
    /// The Padel PWA with no `offset` on its samples.
    case noOffset
    /// All the samples.
    case samples

    func lines() throws -> [String] {
      func file(_ name: String) throws -> [String] {
        let url = RepositoryPaths.sampleEvents.appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
      }
      let type = { (line: String, types: [String]) in types.contains { line.contains("\"type\":\"\($0)\"") } }
      switch self {
      case .noIndicatorShown: return try file("padel-pwa.jsonl").filter { !type($0, ["indicator_shown"]) }
      case .iosWithoutLabels:
        let ios = try file("padel-ios-1.jsonl") + file("padel-ios-2.jsonl")
        return ios.filter { !type($0, ["label"]) } + (try file("padel-pwa.jsonl"))
      case .pullsOnly: return try file("padel-pwa.jsonl").filter { type($0, ["pull_start", "pull_move", "label"]) }
      case .noOffset:
        return try file("padel-pwa.jsonl").map { $0.replacing(/,"offset":[0-9.]+/, with: "") }
      case .samples: return []
      }
    }
  }

  /// Each log ingested once per test process.
  static let databases: [Log: String] = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pullparity-nothing-checked-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var paths: [Log: String] = [.samples: SampleDatabase.path]
    for log in Log.allCases where log != .samples {
      let input = directory.appendingPathComponent("\(log.rawValue).jsonl")
      let path = directory.appendingPathComponent("\(log.rawValue).sqlite").path
      let written: Void? = try? log.lines().joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
      precondition(written != nil, "writing \(input.path) failed")
      let run = try? CommandRun.pullparity(["ingest", "--quiet", "--db", path, input.path])
      precondition(run?.exitCode == 0, "ingesting \(log) failed: \(run?.stderr ?? "")")
      paths[log] = path
    }
    atexit {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("pullparity-nothing-checked-\(ProcessInfo.processInfo.processIdentifier)")
      try? FileManager.default.removeItem(at: directory)
    }
    return paths
  }()

  struct Case: Sendable, CustomTestStringConvertible {
    var log: Log
    var arguments: [String]
    var exitCode: Int32
    /// Phrases standard output must hold, wrapped lines joined.
    var says: [String]
    /// Phrases it must not hold.
    var never: [String] = []
    var testDescription: String { "\(log): " + arguments.joined(separator: " ") }
  }

  static let budgets = [
    "--budget", "arm_mismatch=100", "--budget", "flash=100", "--budget", "hold_compliance=100",
    "--budget", "stuck_refresh=100",
  ]
  static let ffciBudgets = [
    "--budget", "cache_order=20", "--budget", "error_not_shown=20", "--budget", "content_cleared_on_error=20",
    "--budget", "double_refresh=20",
  ]

  static let cases: [Case] = [
    // No indicator_shown: flash and late hide have no visible time to judge. (The PWA's planted
    // stuck refreshes are let through: these cases are about items with nothing to check.)
    Case(
      log: .noIndicatorShown, arguments: ["qa", "--budget", "stuck_refresh=100"], exitCode: 0,
      says: [
        "---- 3.  Fast loads", "0 of 0 fast loads (< 1200 ms) hid before 1200 ms",
        "---- •   Indicator leaves on time", "0 of 0 completed refreshes hid more than 250 ms",
        "Pass: 11 pass, 0 fail, 1 with too few sessions (under 30), 4 with no data.",
      ],
      never: ["PASS 3.", "PASS •   Indicator leaves on time"]),
    Case(
      log: .noIndicatorShown, arguments: ["qa", "--require-data", "--budget", "stuck_refresh=100"], exitCode: 1,
      says: [
        "FAIL for want of data (--require-data)", "Wanting data: padel/pwa no_flash,",
        "padel/pwa no_late_hide, padel/pwa hold_compliant, padel/pwa no_repeated_refresh.",
      ]),
    // No labels from iOS: the copy is not checked there, in qa and in the report alike.
    Case(
      log: .iosWithoutLabels, arguments: ["qa", "--app", "padel", "--platform", "ios", "--min-sessions", "5"],
      exitCode: 1,
      says: [
        "---- 5.  Labels match the exact copy", "0 labels with other copy in 0 of 0 sessions",
        "---- 6.  Empty-state screens", "0 of 0 empty-state refreshes",
      ],
      never: ["PASS 5.", "PASS 6."]),
    Case(
      log: .iosWithoutLabels, arguments: ["report", "--app", "padel", "--min-sessions", "5"], exitCode: 0,
      says: ["label_text                    ok 0.0% (0/130)                no data      0%"]),
    Case(
      log: .iosWithoutLabels,
      arguments: ["qa", "--app", "padel", "--platform", "ios", "--min-sessions", "5", "--from-sessions"],
      exitCode: 1, says: ["---- 5.  Labels match the exact copy"]),
    // No offset: whether the indicator follows the finger is unknown (the PWA's flashes still fail).
    Case(
      log: .noOffset, arguments: ["qa"], exitCode: 1,
      says: ["---- 1.  Indicator follows the drag", "0 of 0 pulls strayed", "offset error –, worst gap"],
      never: ["PASS 1."]),
    // Pulls only: --require-data fails on every figure without data, and names them.
    Case(
      log: .pullsOnly, arguments: ["qa", "--require-data"], exitCode: 1,
      says: [
        "FAIL for want of data (--require-data): 7 pass, 0 fail",
        "Wanting data: padel/pwa arm_parity, padel/pwa no_flash, padel/pwa no_premature_hide",
      ]),
    Case(
      log: .pullsOnly, arguments: ["report", "--check", "--require-data"], exitCode: 1,
      says: [
        "FAIL: some figures have no data or fewer than 30 sessions and --require-data was given.",
        "padel pull: rules hold_compliance (pwa), flash (pwa), premature_hide (pwa), late_hide (pwa)",
      ],
      never: ["Pass"]),
    // One platform in the selection: the one-platform gate judges it alone against its rules.
    Case(
      log: .pullsOnly, arguments: ["report", "--check"], exitCode: 0,
      says: ["0 groups compared, 1 judged alone", "Pass: each app has one platform here, judged alone"],
      never: ["No parity verdict", "FAIL"]),
    Case(
      log: .samples, arguments: ["report", "--check", "--app", "padel", "--by", "app_version"] + budgets,
      exitCode: 1,
      says: [
        "0 groups compared, 2 judged alone", "No parity verdict: no group had two platforms to compare",
        "the platforms judged alone are within their profile's rules.",
      ],
      never: ["Pass", "(few:"]),
    // ffci ships on one platform: within its budgets, the one-platform gate passes it.
    Case(
      log: .samples, arguments: ["report", "--check", "--app", "ffci"] + ffciBudgets, exitCode: 0,
      says: ["0 groups compared, 1 judged alone", "Pass: each app has one platform here"],
      never: ["No parity verdict", "(few:"]),
    Case(
      log: .samples,
      arguments: ["report", "--check", "--app", "ffci", "--format", "json"] + ffciBudgets, exitCode: 0,
      says: [#""outcome" : "passed""#, #""judged_alone" : true"#]),
    Case(
      log: .samples, arguments: ["report", "--check", "--app", "ffci", "--format", "markdown"] + ffciBudgets,
      exitCode: 0, says: ["✅ **Pass: each app has one platform here"], never: ["❌ **"]),
    // Without the budgets its rules fail it, one platform or not.
    Case(
      log: .samples, arguments: ["report", "--check", "--app", "ffci"], exitCode: 1,
      says: ["FAIL — ffci pull: rules cache_order (ios)"], never: ["Pass"]),
    // The legend explains "few" where it was printed, and only there.
    Case(
      log: .samples, arguments: ["report", "--app", "phlock", "--app-version", "2.1.0", "--check"], exitCode: 0,
      says: ["few 0.0% (0/27)", "(few: fewer than 30 sessions, no verdict either way)"]),
  ]

  @Test(arguments: cases)
  func gate(_ c: Case) throws {
    let path = try #require(Self.databases[c.log])
    let run = try CommandRun.pullparity(c.arguments + ["--db", path])
    #expect(run.exitCode == c.exitCode, "stdout: \(run.stdout.suffix(600))\nstderr: \(run.stderr)")
    let output = run.stdout.replacingOccurrences(of: "\n  ", with: " ")
    for phrase in c.says {
      #expect(output.contains(phrase), "missing \"\(phrase)\" in:\n\(output)")
    }
    for phrase in c.never {
      #expect(!output.contains(phrase), "unexpected \"\(phrase)\" in:\n\(output)")
    }
  }

  /// The JSON says the same: an item with nothing checked counts 0 sessions and has no data.
  @Test(arguments: [
    (Log.noIndicatorShown, "no_flash", Int32(0)), (.noIndicatorShown, "no_late_hide", 0),
    (.noOffset, "drag_tracking", 1),
  ])
  func itemWithNothingCheckedInJSON(log: Log, check: String, exitCode: Int32) throws {
    let path = try #require(Self.databases[log])
    // The PWA's planted stuck refreshes let through, as in the text cases above.
    let run = try CommandRun.pullparity(["qa", "--format", "json", "--budget", "stuck_refresh=100", "--db", path])
    #expect(run.exitCode == exitCode, "\(run.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let items = try #require(report["items"] as? [[String: Any]])
    let item = try #require(items.first { $0["check"] as? String == check })
    #expect(item["checked"] as? Int == 0)
    #expect(item["status"] as? String == "no_data")
  }
}
