import Foundation
import PullParityTestSupport
import Testing

/// Issue #38 items 4–6: a one-platform app has a gate that passes a good build and fails a bad
/// one; `qa` fails on the rules `report --check` fails on; a rule broken on too few sessions is
/// named with its sessions in every format; `budgets` never proposes a budget that cannot fail.
@Suite struct GateAgreementTests {
  static let day = 1_795_000_000_000.0

  /// A database of `parts` (variant, platform, sessions), all of app version 1.0.
  static func database(
    _ name: String, _ parts: [(FieldFailureLog.Variant, String, Int)], in dir: TemporaryDirectory
  ) throws -> (db: String, lines: [String]) {
    var log = FieldFailureLog()
    for (index, part) in parts.enumerated() {
      log.add(part.0, platform: part.1, version: "1.0", startMs: day + Double(index) * 10_000_000, count: part.2)
    }
    let path = try dir.write("\(name).jsonl", log.lines.joined(separator: "\n") + "\n")
    let db = dir.path("\(name).sqlite")
    let ingest = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, path])
    #expect(ingest.exitCode == 0, "\(ingest.stderr)")
    return (db, log.lines)
  }

  /// The ids of the sessions of `lines` that started a refresh and never hid it.
  static func stuckSessions(_ lines: [String]) -> [String] {
    var events: [String: [String]] = [:]
    for line in lines {
      guard let match = line.firstMatch(of: /"session_id":"([^"]+)"/) else { continue }
      events[String(match.1), default: []].append(line)
    }
    return events.filter { _, lines in
      lines.contains { $0.contains("\"refresh_start\"") } && !lines.contains { $0.contains("\"indicator_hidden\"") }
    }.keys.sorted()
  }

  // MARK: Item 4: a gate for one-platform apps

  @Test func aOnePlatformGoodBuildPassesTheCheckAndItsStuckSpinnerBuildFailsIt() throws {
    let dir = try TemporaryDirectory()
    let good = try Self.database("good", [(.correct, "ios", 40)], in: dir)
    let pass = try CommandRun.pullparity(["report", "--check", "--db", good.db])
    #expect(pass.exitCode == 0, "\(pass.stdout)")
    #expect(
      pass.stdout.replacingOccurrences(of: "\n  ", with: " ").contains(
        "Pass: each app has one platform here, judged alone"))
    let json = try CommandRun.pullparity(["report", "--check", "--db", good.db, "--format", "json"])
    #expect(json.exitCode == 0)
    #expect(json.stdout.contains(#""judged_alone" : true"#), "\(json.stdout.prefix(600))")

    let bad = try Self.database("bad", [(.correct, "ios", 20), (.stuck, "ios", 20)], in: dir)
    let fail = try CommandRun.pullparity(["report", "--check", "--db", bad.db])
    #expect(fail.exitCode == 1, "\(fail.stdout)")
    #expect(fail.stdout.replacingOccurrences(of: "\n  ", with: " ").contains("rules stuck_refresh (ios)"))
  }

  /// `--platform X` makes any app a one-platform selection; two platforms uncompared still do not
  /// pass (each app version one platform's).
  @Test func platformSelectsTheOnePlatformGateAndUncomparedPlatformsStillDoNotPass() throws {
    let dir = try TemporaryDirectory()
    let both = try Self.database("both", [(.correct, "ios", 40), (.stuck, "pwa", 40)], in: dir)
    let ios = try CommandRun.pullparity(["report", "--check", "--db", both.db, "--platform", "ios"])
    #expect(ios.exitCode == 0, "\(ios.stdout)")
    let pwa = try CommandRun.pullparity(["report", "--check", "--db", both.db, "--platform", "pwa"])
    #expect(pwa.exitCode == 1, "\(pwa.stdout)")

    var log = FieldFailureLog()
    log.add(.correct, platform: "ios", version: "1.0", startMs: Self.day)
    log.add(.correct, platform: "pwa", version: "2.0", startMs: Self.day + 10_000_000)
    let path = try dir.write("split.jsonl", log.lines.joined(separator: "\n") + "\n")
    let db = dir.path("split.sqlite")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, path]).exitCode == 0)
    let split = try CommandRun.pullparity(["report", "--check", "--db", db, "--by", "app_version"])
    #expect(split.exitCode == 1, "\(split.stdout)")
    #expect(split.stdout.contains("No parity verdict"), "\(split.stdout)")
  }

  @Test func nothingJudgedOnOnePlatformStillFails() throws {
    let dir = try TemporaryDirectory()
    let few = try Self.database("few", [(.correct, "ios", 5)], in: dir)
    let run = try CommandRun.pullparity(["report", "--check", "--db", few.db])
    #expect(run.exitCode == 1, "\(run.stdout)")
    #expect(run.stdout.contains("No verdict: no figure had 30 sessions"), "\(run.stdout)")
  }

  // MARK: Item 5: gates agree

  /// The QA item of each rule (`QACheck.rule`), as `qa --format json` names them.
  static let itemOfRule = [
    "hold_compliance": "hold_compliant", "flash": "no_flash", "premature_hide": "no_premature_hide",
    "late_hide": "no_late_hide", "label_text": "label_copy", "arm_mismatch": "arm_parity",
    "reveal_order": "reveal_order", "indicator_config": "indicator_config", "cache_order": "cache_order",
    "error_not_shown": "error_shown", "content_cleared_on_error": "content_kept_on_error",
    "double_refresh": "no_double_refresh", "stuck_refresh": "refresh_ends",
    "dropped_refresh": "armed_release_refreshes", "refresh_before_release": "no_early_refresh",
    "unexpected_event": "no_unexpected_event", "repeated_refresh": "no_repeated_refresh",
  ]

  /// "ios/stuck_refresh" for every rule a platform fails in `report --format json`.
  static func failingRules(_ json: String) throws -> Set<String> {
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    var found: Set<String> = []
    for app in root["apps"] as? [[String: Any]] ?? [] {
      for group in app["groups"] as? [[String: Any]] ?? [] {
        for platform in group["platforms"] as? [[String: Any]] ?? [] {
          for rule in platform["rules"] as? [[String: Any]] ?? [] where rule["verdict"] as? String == "fail" {
            found.insert("\(platform["platform"] as? String ?? "")/\(rule["rule"] as? String ?? "")")
          }
        }
      }
    }
    return found
  }

  /// "ios/refresh_ends" for every item `qa --format json` fails.
  static func failingItems(_ json: String) throws -> Set<String> {
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let items = root["items"] as? [[String: Any]] ?? []
    #expect((root["rules_not_checked"] as? [String]) == [])
    return Set(
      items.filter { $0["status"] as? String == "fail" }.map {
        "\($0["platform"] as? String ?? "")/\($0["check"] as? String ?? "")"
      })
  }

  @Test(arguments: FieldFailureLog.Variant.allCases)
  func qaAndReportCheckFailOnTheSameRules(_ variant: FieldFailureLog.Variant) throws {
    let dir = try TemporaryDirectory()
    let log = try Self.database(variant.rawValue, [(.correct, "pwa", 40), (variant, "ios", 40)], in: dir)
    let report = try CommandRun.pullparity(["report", "--check", "--db", log.db, "--format", "json"])
    let qa = try CommandRun.pullparity(["qa", "--db", log.db, "--format", "json"])
    let rules = try Self.failingRules(report.stdout)
    let items = try Self.failingItems(qa.stdout)
    let expected = Set(
      rules.map { key in
        let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
        return "\(parts[0])/\(Self.itemOfRule[parts[1]] ?? "?")"
      })
    #expect(items == expected, "report fails \(rules.sorted()), qa fails \(items.sorted())")
    #expect((report.exitCode == 0) == rules.isEmpty || !rules.isEmpty)
    if variant != .correct {
      #expect(!rules.isEmpty, "\(report.stdout.prefix(800))")
      #expect(report.exitCode == 1 && qa.exitCode == 1)
    } else {
      #expect(qa.exitCode == 0, "\(qa.stdout.prefix(800))")
    }
  }

  @Test func anUnexpectedEventLogFailsQAAsItFailsReportCheck() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.database("unexpected", [(.unexpected, "ios", 40)], in: dir)
    let report = try CommandRun.pullparity(["report", "--check", "--db", log.db])
    #expect(report.exitCode == 1)
    #expect(report.stdout.replacingOccurrences(of: "\n  ", with: " ").contains("rules unexpected_event (ios)"))
    let qa = try CommandRun.pullparity(["qa", "--db", log.db])
    #expect(qa.exitCode == 1, "\(qa.stdout)")
    #expect(qa.stdout.contains("FAIL •   Only events the state machine allows"), "\(qa.stdout)")
  }

  /// The flash budget `budgets` would propose holds in `qa`'s fast-load item as in the rule table.
  @Test func theFastLoadItemHonoursTheFlashBudget() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("padel.sqlite")
    let pwa = RepositoryPaths.sampleEvents.appendingPathComponent("padel-pwa.jsonl").path
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", db, pwa]).exitCode == 0)
    let strict = try CommandRun.pullparity(["qa", "--db", db, "--format", "json"])
    #expect(try Self.failingItems(strict.stdout).contains("pwa/no_flash"))
    let budget = ["--budget", "flash=100", "--budget", "hold_compliance=100", "--budget", "stuck_refresh=100"]
    let qa = try CommandRun.pullparity(["qa", "--db", db, "--format", "json"] + budget)
    let report = try CommandRun.pullparity(["report", "--db", db, "--format", "json"] + budget)
    #expect(!(try Self.failingItems(qa.stdout)).contains("pwa/no_flash"), "\(qa.stdout.prefix(1500))")
    #expect(try Self.failingRules(report.stdout).isEmpty)
  }

  @Test func budgetsNeverProposesABudgetThatCannotFail() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.database("dropped", [(.dropped, "ios", 41)], in: dir)
    let text = try CommandRun.pullparity(["budgets", "--db", log.db])
    #expect(text.exitCode == 0, "\(text.stderr)")
    let row = try #require(text.stdout.split(separator: "\n").first { $0.contains("dropped_refresh") })
    #expect(!row.hasSuffix("100%"), "\(text.stdout)")
    #expect(row.contains("99% (capped)"), "\(text.stdout)")
    #expect(text.stdout.contains("a budget of 100% never fails"), "\(text.stdout)")

    let json = try CommandRun.pullparity(["budgets", "--db", log.db, "--format", "json"])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    for profile in root["profiles"] as? [[String: Any]] ?? [] {
      for (rule, budget) in profile["budgets"] as? [String: Double] ?? [:] {
        #expect(budget < 100, "\(rule) \(budget)")
      }
    }
    #expect((root["capped"] as? [[String: Any]])?.first?["rule"] as? String == "dropped_refresh")
    // The file still reads as a profile file.
    let file = try dir.write("budgets.json", json.stdout)
    #expect(try CommandRun.pullparity(["replay", "--db", log.db, "--profiles", file]).exitCode == 0)

    // Fewer sessions than --min-sessions: nothing proposed, and said so in text and JSON.
    let few = try CommandRun.pullparity(["budgets", "--db", log.db, "--min-sessions", "50"])
    #expect(few.stdout.contains("not proposed: 41 sessions judged, fewer than 50"), "\(few.stdout)")
    let fewJSON = try CommandRun.pullparity(["budgets", "--db", log.db, "--min-sessions", "50", "--format", "json"])
    let fewRoot = try #require(try JSONSerialization.jsonObject(with: Data(fewJSON.stdout.utf8)) as? [String: Any])
    let notProposed = (fewRoot["not_proposed"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    #expect(notProposed.contains("dropped_refresh"), "\(fewJSON.stdout)")
  }

  // MARK: Item 6: small samples stay visible

  @Test func fiveSessionsWithTwoStuckAreNamedInEveryFormat() throws {
    let dir = try TemporaryDirectory()
    // Stuck first: the correct ones after move the data past the stuck refreshes' 30 s.
    let log = try Self.database("five", [(.stuck, "ios", 2), (.correct, "ios", 3)], in: dir)
    let stuck = Self.stuckSessions(log.lines)
    #expect(stuck.count == 2)
    let note = "2 stuck refreshes in 5 sessions: too few for a verdict"
    for format in ["text", "markdown", "json", "csv", "html"] {
      let run = try CommandRun.pullparity(["report", "--db", log.db, "--format", format])
      #expect(run.exitCode == 0, "\(format): \(run.stderr)")
      let output = run.stdout.replacingOccurrences(of: "\n    ", with: " ").replacingOccurrences(of: "\n  ", with: " ")
      #expect(output.contains(note), "\(format):\n\(output)")
      for id in stuck { #expect(output.contains(id), "\(format) does not name \(id)") }
      #expect(!output.contains("No rule fails."), "\(format)")
    }
    let html = try CommandRun.pullparity(["report", "--db", log.db, "--format", "html"]).stdout
    #expect(html.contains("data-rule=\"stuck_refresh\""), "the HTML draws a stuck session")
    #expect(html.contains("No rule fails with enough sessions for a verdict, but:"))
  }

  @Test func aCleanSmallSampleStillSaysNoRuleFails() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.database("clean", [(.correct, "ios", 5)], in: dir)
    let html = try CommandRun.pullparity(["report", "--db", log.db, "--format", "html"]).stdout
    #expect(html.contains("<p class=\"note\">No rule fails.</p>"))
  }
}
