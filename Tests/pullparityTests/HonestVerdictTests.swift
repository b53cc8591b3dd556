import Foundation
import PullParityTestSupport
import Testing

/// The gates as a release pipeline runs them on the sample logs: every case a new user tried
/// that used to pass on nothing, with its exit code and the message that says why.
@Suite struct HonestVerdictTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var exitCode: Int32
    /// Phrases the output (stdout, or stderr for exit 2) must hold, in any order.
    var says: [String]
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases: [Case] = [
    // Nothing selected: exit 2, the filter named, the values that exist listed.
    Case(
      arguments: ["qa", "--app", "nosuchapp"], exitCode: 2,
      says: ["matches the selection (app=nosuchapp)", "Nothing was checked", "Known: ffci, padel, phlock."]),
    Case(
      arguments: ["qa", "--platform", "iOS"], exitCode: 2,
      says: ["platform \"iOS\" is not in the database: did you mean ios? Known: ios, pwa."]),
    Case(
      arguments: ["report", "--app", "nosuchapp", "--check"], exitCode: 2,
      says: ["app \"nosuchapp\" is not in the database."]),
    Case(
      arguments: ["report", "--platform", "iOS", "--check", "--format", "json"], exitCode: 2,
      says: ["did you mean ios?"]),
    Case(
      arguments: ["report", "--app", "padel", "--app-version", "3.8.0", "--platform", "ios"], exitCode: 2,
      says: ["Each value exists, but no session has them all"]),
    Case(
      arguments: ["compare", "--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=iOS"],
      exitCode: 2,
      says: ["matches the candidate cohort (app=padel platform=iOS). Nothing", "did you mean ios?"]),
    // Both cohorts have sessions, but none of the trigger compared: nothing was compared.
    Case(
      arguments: [
        "compare", "--app", "padel", "--trigger", "tab_reselect", "--baseline", "platform=pwa", "--candidate",
        "platform=ios",
      ],
      exitCode: 2,
      says: ["the baseline cohort (app=padel platform=pwa) has no tab_reselect sessions in", "Nothing was checked."]),
    // The PWA's `feed` and iOS's `FeedView` are one logical screen: the groups meet and compare.
    Case(
      arguments: ["report", "--app", "padel", "--by", "screen", "--check"], exitCode: 1,
      says: [
        "padel · profile padel v2 · screen feed · reference pwa",
        "padel · profile padel v2 · screen matches · reference pwa", "2 groups compared, 0 judged alone",
      ]),
    // One platform per version: no comparison, but each judged against the profile: the PWA's
    // flashes and iOS's arm mismatches fail their rules.
    Case(
      arguments: ["report", "--app", "padel", "--by", "app_version", "--check"], exitCode: 1,
      says: [
        "One platform: nothing to compare it with; judged against the profile alone.",
        "padel 3.8.0: rules hold_compliance (pwa), flash (pwa), stuck_refresh (pwa)",
        "padel 3.8.1: rules arm_mismatch (ios), stuck_refresh (ios)",
        "0 groups compared, 2 judged alone",
      ]),
    // App-specific rules show in the report, per logical screen.
    Case(
      arguments: ["report", "--app", "ffci", "--by", "screen", "--check"], exitCode: 1,
      says: [
        "ffci TabPageView: rules cache_order (ios)",
        "ffci CollectionListView: rules error_not_shown (ios), content_cleared_on_error (ios)",
        "cache_order               FAIL 13.3% (4/30)",
      ]),
    // A budget on the command line lets the four cache-order sessions through.
    Case(
      arguments: [
        "report", "--app", "ffci", "--by", "screen", "--budget", "cache_order=20", "--budget", "error_not_shown=20",
        "--budget", "content_cleared_on_error=20", "--budget", "double_refresh=20",
      ],
      exitCode: 0, says: ["cache_order               ok 13.3% (4/30)     20%"]),
    // Too few sessions: no verdict, and a gate that judged nothing does not pass.
    Case(
      arguments: ["report", "--app", "padel", "--min-sessions", "200", "--check"], exitCode: 1,
      says: ["No verdict: no figure had 200 sessions", "few n=116"]),
    Case(
      arguments: ["qa", "--app", "padel", "--min-sessions", "200"], exitCode: 1,
      says: ["No verdict: no item had enough sessions.", "FEW "]),
    Case(
      arguments: ["compare", "--app", "ffci", "--baseline", "app_version=1.9.0", "--candidate", "app_version=1.9.1"],
      exitCode: 1, says: ["No verdict: no figure had 30 sessions on both sides", "too few"]),
    // Padel with its planted defects let through and 120 sessions to a verdict: what has enough
    // sessions passes, the rest is too few to judge; that passes unless the gate requires data.
    Case(
      arguments: [
        "report", "--app", "padel", "--check", "--arm-tolerance", "20", "--rate-tolerance", "100", "--budget",
        "arm_mismatch=100", "--budget", "flash=100", "--budget", "hold_compliance=100", "--budget", "stuck_refresh=100",
        "--min-sessions", "120",
      ],
      exitCode: 0, says: ["Pass on every figure with enough sessions", "1 group compared", "few n=116"]),
    Case(
      arguments: [
        "report", "--app", "padel", "--check", "--arm-tolerance", "20", "--rate-tolerance", "100", "--budget",
        "arm_mismatch=100", "--budget", "flash=100", "--budget", "hold_compliance=100", "--budget", "stuck_refresh=100",
        "--min-sessions", "120", "--require-data",
      ],
      exitCode: 1, says: ["FAIL: some figures have no data or fewer than 120 sessions and --require-data was given."]),
    // Phlock 2.1.0 is clean: its pulls pass, its 27 tab re-selects are too few to judge; phlock
    // ships on one platform, so the one-platform gate judges it alone, and it passes.
    Case(
      arguments: ["report", "--app", "phlock", "--app-version", "2.1.0", "--check"], exitCode: 0,
      says: ["Pass: each app has one platform here, judged alone", "1 skipped"]),
    Case(
      arguments: ["report", "--app", "phlock", "--app-version", "2.1.0", "--check", "--require-data"], exitCode: 1,
      says: ["FAIL: some figures have no data or fewer than 30 sessions and --require-data was given."]),
    Case(arguments: ["report", "--budget", "bogus=1"], exitCode: 2, says: ["unknown rule \"bogus\""]),
    Case(arguments: ["qa", "--min-sessions", "0"], exitCode: 2, says: ["--min-sessions must be 1 or more"]),
  ]

  @Test(arguments: cases)
  func gate(_ c: Case) throws {
    let run = try CommandRun.pullparity(c.arguments + ["--db", SampleDatabase.path])
    #expect(run.exitCode == c.exitCode, "stdout: \(run.stdout.suffix(600))\nstderr: \(run.stderr)")
    let output = (c.exitCode == 2 ? run.stderr : run.stdout).replacingOccurrences(of: "\n  ", with: " ")
    for phrase in c.says {
      #expect(output.contains(phrase), "missing \"\(phrase)\" in:\n\(output)")
    }
  }

  /// ffci's and phlock's planted defects, and padel's, are failed rules in every format, and
  /// nothing else is.
  @Test(arguments: ["text", "markdown", "csv", "json", "html"])
  func plantedDefectsAreFailedRulesInEveryFormat(format: String) throws {
    let run = try CommandRun.pullparity(["report", "--db", SampleDatabase.path, "--format", format])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let failed = try Self.failedRules(run.stdout, format: format)
    #expect(
      failed == [
        "ffci/cache_order", "ffci/content_cleared_on_error", "ffci/double_refresh", "ffci/error_not_shown",
        "padel/arm_mismatch", "padel/flash", "padel/hold_compliance", "padel/stuck_refresh",
        "phlock/indicator_config", "phlock/reveal_order",
      ], "\(format)")
  }

  /// "app/rule title" of every failed rule, read the way a reader of that format would.
  static func failedRules(_ output: String, format: String) throws -> Set<String> {
    switch format {
    case "json":
      var failed = Set<String>()
      for app in try JSONTree(parsing: output)["apps"].array {
        for group in try app["groups"].array {
          for platform in try group["platforms"].array {
            for rule in try platform["rules"].array where try rule["verdict"].string == "fail" {
              failed.insert("\(try app["app"].string)/\(try rule["rule"].string)")
            }
          }
        }
      }
      return failed
    case "csv":
      let rows = CSVTable(parsing: output).rows
      return Set(
        rows.filter { $0["kind"] == "rule" && $0["verdict"] == "fail" }.map {
          "\($0["app"] ?? "no app column")/\($0["metric"] ?? "no metric column")"
        })
    default:
      return Self.failedRulesInPages(output, format: format)
    }
  }

  /// Text, Markdown and HTML: the rule tables under each app's headings.
  static func failedRulesInPages(_ output: String, format: String) -> Set<String> {
    var failed = Set<String>()
    var app = ""
    for line in output.split(separator: "\n").map(String.init) {
      for name in ["ffci", "padel", "phlock"] where Self.isHeading(line, of: name, format: format) { app = name }
      for title in Self.rules where Self.isFailedRule(line, title: title, format: format) {
        failed.insert("\(app)/\(title)")
      }
    }
    return failed
  }

  static func isHeading(_ line: String, of app: String, format: String) -> Bool {
    switch format {
    case "text": line.hasPrefix("\(app) · profile")
    case "markdown": line.hasPrefix("## \(app) · ")
    default: line == "<h2>\(app)</h2>"
    }
  }

  static func isFailedRule(_ line: String, title: String, format: String) -> Bool {
    switch format {
    case "text": line.hasPrefix(title + " ") && line.contains("FAIL")
    case "markdown": line.hasPrefix("| \(title) |") && line.contains("❌")
    default: line.hasPrefix("<tr class=\"failing\"><th scope=\"row\">\(title)</th>")
    }
  }

  /// Every rule's one name, as profiles, violations and every report format write it.
  static let rules = [
    "hold_compliance", "flash", "premature_hide", "late_hide", "label_text", "arm_mismatch", "reveal_order",
    "indicator_config", "cache_order", "error_not_shown", "content_cleared_on_error", "double_refresh",
    "stuck_refresh", "dropped_refresh", "refresh_before_release", "unexpected_event", "repeated_refresh",
  ]
}
