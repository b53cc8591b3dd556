import Foundation
import PullParityTestSupport
import Testing

/// `qa` judges the items that count one rule of the profile as `report --check` judges the rule:
/// against its budget, from `--budget` or the profile's `budgets`, and says which budget.
@Suite struct QABudgetTests {
  /// FFCI's sample breaks cache order in 4 of 30 sessions (13.3 %), and three other rules in a
  /// few percent of its 90 sessions.
  static let budgets = [
    "cache_order": 20.0, "double_refresh": 5.0, "error_not_shown": 5.0, "content_cleared_on_error": 5.0,
  ]

  enum BudgetSource: String, CaseIterable, CustomTestStringConvertible {
    case commandLine, profileFile
    var testDescription: String { rawValue }
  }

  /// A database of the FFCI sample, derived with its built-in profile or with the same profile
  /// carrying `budgets`; returns it and the flags `qa` and `report` get.
  static func ingest(_ dir: TemporaryDirectory, budgetsFrom source: BudgetSource?) throws -> (String, [String]) {
    let db = dir.path("ffci.sqlite")
    var profileFlags: [String] = []
    if source == .profileFile {
      let printed = try CommandRun.pullparity(["profiles", "--format", "json"])
      let all = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any]
      let profiles = try #require(all?["profiles"] as? [[String: Any]])
      var ffci = try #require(profiles.first { $0["name"] as? String == "ffci" })
      ffci["budgets"] = budgets
      let file = try dir.write("ffci.json", try JSONSerialization.data(withJSONObject: ["profiles": [ffci]]))
      profileFlags = ["--profiles", file]
    }
    let sample = RepositoryPaths.sampleEvents.appendingPathComponent("ffci-ios.jsonl.gz").path
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, sample] + profileFlags)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let flags =
      source == .commandLine ? budgets.sorted { $0.key < $1.key }.flatMap { ["--budget", "\($0)=\($1)"] } : []
    return (db, ["--db", db, "--app", "ffci"] + flags)
  }

  @Test func withoutBudgetsAnyCacheOrderBreakFailsQAAndReportAlike() throws {
    let dir = try TemporaryDirectory()
    let (_, flags) = try Self.ingest(dir, budgetsFrom: nil)
    let qa = try CommandRun.pullparity(["qa"] + flags)
    #expect(qa.exitCode == 1, "\(qa.stderr)")
    #expect(qa.stdout.contains("FAIL •   Page cache invalidated before the fetch"), "\(qa.stdout)")
    #expect(qa.stdout.contains("cache_order in 4 of 30 sessions (13.3%, budget 0%)"), "\(qa.stdout)")
    let report = try CommandRun.pullparity(["report", "--check"] + flags)
    #expect(report.exitCode == 1, "\(report.stdout)")
    #expect(report.stdout.contains("FAIL — ffci pull: rules cache_order (ios)"), "\(report.stdout)")
  }

  @Test(arguments: BudgetSource.allCases)
  func qaJudgesRuleItemsAgainstTheBudgetAsReportDoes(_ source: BudgetSource) throws {
    let dir = try TemporaryDirectory()
    let (_, flags) = try Self.ingest(dir, budgetsFrom: source)
    let qa = try CommandRun.pullparity(["qa"] + flags)
    #expect(qa.exitCode == 0, "\(qa.stdout)")
    for line in [
      "PASS •   Page cache invalidated before the fetch", "cache_order in 4 of 30 sessions (13.3%, budget 20%)",
      "double_refresh in 2 of 90 sessions (2.2%, budget 5%)", "error_not_shown in 3 of 90 sessions (3.3%, budget 5%)",
      "Pass: 11 pass, 0 fail",
    ] {
      #expect(qa.stdout.contains(line), "\(line)\n\(qa.stdout)")
    }
    // ffci ships on one platform: its rules pass within budget, and the one-platform gate
    // passes it, as qa does.
    let report = try CommandRun.pullparity(["report", "--check"] + flags)
    #expect(report.exitCode == 0, "\(report.stdout)")
    #expect(report.stdout.contains("ok 13.3% (4/30)"), "\(report.stdout)")
    #expect(report.stdout.contains("Pass: each app has one platform here"), "\(report.stdout)")
    #expect(!report.stdout.contains("FAIL"), "\(report.stdout)")

    let json = try CommandRun.pullparity(["qa", "--format", "json"] + flags)
    let items = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
    let cache = try #require(items.first { $0["check"] as? String == "cache_order" })
    #expect(cache["status"] as? String == "pass")
    #expect(cache["budget_percent"] as? Double == 20)
    let drag = try #require(items.first { $0["check"] as? String == "drag_tracking" })
    #expect(drag["budget_percent"] == nil, "an item that is no rule has no budget")
  }
}
