import Foundation
import PullParityTestSupport
import Testing

/// The failures users file, each as a log, through every gate: the rule fails on the platform
/// that has it in `report --check`, its QA item fails in `qa`, and `compare` calls the release
/// that brings it a regression and the release that fixes it an improvement (exit 0). A log of
/// correct pulls passes all three.
@Suite struct FieldFailureGateTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var variant: FieldFailureLog.Variant
    var rule: String
    /// The QA item that checks the rule, when there is one.
    var qaItem: String?
    var testDescription: String { variant.rawValue }
  }

  static let cases: [Case] = [
    Case(variant: .stuck, rule: "stuck_refresh", qaItem: "refresh_ends"),
    Case(variant: .dropped, rule: "dropped_refresh", qaItem: "armed_release_refreshes"),
    Case(variant: .early, rule: "refresh_before_release", qaItem: "no_early_refresh"),
    Case(variant: .unexpected, rule: "unexpected_event", qaItem: "no_unexpected_event"),
    Case(variant: .repeated, rule: "repeated_refresh", qaItem: "no_repeated_refresh"),
  ]

  static let day = 1_795_000_000_000.0

  /// pwa correct in 1.0 and 2.0; ios correct in 1.0, `variant` in 2.0 (the release that brings
  /// it), correct again in 3.0 (the fix).
  static func database(_ variant: FieldFailureLog.Variant, in dir: TemporaryDirectory) throws -> String {
    var log = FieldFailureLog()
    log.add(.correct, platform: "pwa", version: "1.0", startMs: day)
    log.add(.correct, platform: "pwa", version: "2.0", startMs: day + 3_600_000)
    log.add(.correct, platform: "ios", version: "1.0", startMs: day + 100)
    log.add(variant, platform: "ios", version: "2.0", startMs: day + 3_600_100)
    log.add(.correct, platform: "ios", version: "3.0", startMs: day + 7_200_100)
    let path = try dir.write("\(variant.rawValue).jsonl", log.lines.joined(separator: "\n") + "\n")
    let db = dir.path("\(variant.rawValue).sqlite")
    let ingest = try CommandRun.pullparity(["ingest", "--quiet", "--db", db, path])
    #expect(ingest.exitCode == 0, "\(ingest.stderr)")
    #expect(ingest.stdout.contains("quarantined             0"), "\(ingest.stdout)")
    return db
  }

  @Test func correctPullsPassEveryGate() throws {
    let dir = try TemporaryDirectory()
    let db = try Self.database(.correct, in: dir)
    let report = try CommandRun.pullparity(["report", "--check", "--db", db])
    #expect(report.exitCode == 0, "\(report.stdout)")
    let qa = try CommandRun.pullparity(["qa", "--db", db])
    #expect(qa.exitCode == 0, "\(qa.stdout)")
    let compare = try CommandRun.pullparity(
      ["compare", "--db", db, "--baseline", "platform=pwa", "--candidate", "platform=ios"])
    #expect(compare.exitCode == 0, "\(compare.stdout)")
  }

  @Test(arguments: cases)
  func theFailureFailsTheGatesAndItsFixPassesThem(_ c: Case) throws {
    let dir = try TemporaryDirectory()
    let db = try Self.database(c.variant, in: dir)

    let broken = try CommandRun.pullparity(["report", "--check", "--db", db, "--app-version", "2.0"])
    #expect(broken.exitCode == 1, "\(broken.stdout)")
    let verdict = broken.stdout.replacingOccurrences(of: "\n  ", with: " ")
    #expect(verdict.contains("rules \(c.rule) (ios)"), "\(verdict)")
    #expect(!verdict.contains("\(c.rule) (ios, pwa)") && !verdict.contains("\(c.rule) (pwa)"))
    // 1.0 has both platforms correct; 3.0 ships on ios alone: the one-platform gate passes it.
    let fine = try CommandRun.pullparity(["report", "--check", "--db", db, "--app-version", "1.0"])
    #expect(fine.exitCode == 0, "\(fine.stdout)")
    let fixedAlone = try CommandRun.pullparity(["report", "--check", "--db", db, "--app-version", "3.0"])
    #expect(fixedAlone.exitCode == 0, "\(fixedAlone.stdout)")

    if let item = c.qaItem {
      let qa = try CommandRun.pullparity(["qa", "--db", db, "--app-version", "2.0", "--format", "json"])
      #expect(qa.exitCode == 1)
      let json = try #require(try JSONSerialization.jsonObject(with: Data(qa.stdout.utf8)) as? [String: Any])
      let items = try #require(json["items"] as? [[String: Any]])
      let failing = items.filter { $0["status"] as? String == "fail" }.map {
        "\($0["platform"] as? String ?? "")/\($0["check"] as? String ?? "")"
      }
      #expect(failing == ["ios/\(item)"], "\(failing)")
      let fixed = try CommandRun.pullparity(["qa", "--db", db, "--app-version", "3.0", "--platform", "ios"])
      #expect(fixed.exitCode == 0, "\(fixed.stdout)")
    }

    let regression = try CommandRun.pullparity(
      ["compare", "--db", db, "--platform", "ios", "--baseline", "app_version=1.0", "--candidate", "app_version=2.0"])
    #expect(regression.exitCode == 1, "\(regression.stdout)")
    #expect(regression.stdout.contains("Regressed: \(c.rule)"), "\(regression.stdout)")
    let fix = try CommandRun.pullparity(
      [
        "compare", "--db", db, "--platform", "ios", "--baseline", "app_version=2.0", "--candidate", "app_version=3.0",
        "--format", "json",
      ])
    #expect(fix.exitCode == 0, "\(fix.stdout)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(fix.stdout.utf8)) as? [String: Any])
    let metrics = try #require(json["metrics"] as? [[String: Any]])
    let rule = try #require(metrics.first { $0["metric"] as? String == "\(c.rule)_rate" })
    #expect(rule["verdict"] as? String == "improvement")
  }
}
