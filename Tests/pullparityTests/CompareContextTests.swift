import Foundation
import PullParityTestSupport
import Testing

/// `compare` carries its context like every report: the profile its sessions were judged with.
@Suite struct CompareContextTests {
  static let arguments = [
    "compare", "--db", SampleDatabase.path, "--app", "padel", "--baseline", "platform=pwa", "--candidate",
    "platform=ios",
  ]

  @Test func theTextNamesTheProfile() throws {
    let run = try CommandRun.pullparity(Self.arguments)
    #expect([0, 1].contains(run.exitCode), "\(run.stderr)")
    #expect(run.stdout.contains("Profiles: padel v2 (d8cbc6caf7bba031)\n"), "\(run.stdout)")
  }

  @Test func theJSONNamesTheProfile() throws {
    let run = try CommandRun.pullparity(Self.arguments + ["--format", "json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let context = try #require(json["context"] as? [String: Any])
    let profiles = try #require(context["profiles"] as? [[String: Any]])
    #expect(profiles.count == 1, "\(profiles)")
    #expect(profiles.first?["name"] as? String == "padel")
    #expect(profiles.first?["version"] as? Int == 2)
    #expect(profiles.first?["content_hash"] as? String == "d8cbc6caf7bba031")
    #expect(profiles.first?["stored"] as? Bool == true)
  }

  /// Cohorts of whole days are compared from the stored digests, others from their sessions:
  /// the same figures either way. `--since` a millisecond after midnight cuts the sample's day
  /// without leaving out a session of it, so only the path differs.
  @Test(arguments: [
    ["--app", "ffci", "--baseline", "app_version=1.9.0", "--candidate", "app_version=1.9.1"],
    ["--app", "phlock", "--trigger", "all", "--baseline", "app_version=2.0.3", "--candidate", "app_version=2.1.0"],
    // ffci has no arming point: its arm distances are judged against the reference platform's.
    ["--app", "ffci", "--baseline", "app_version=1.9.0,platform=ios", "--candidate", "app_version=1.9.1"],
    ["--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=ios"],
  ])
  func digestsAndSessionsCompareAlike(cohorts: [String]) throws {
    func compared(since: String) throws -> [String: Any] {
      let run = try CommandRun.pullparity(
        ["compare", "--db", SampleDatabase.path, "--format", "json", "--since", since] + cohorts)
      #expect([0, 1].contains(run.exitCode), "\(run.stderr)")
      var json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      var context = try #require(json["context"] as? [String: Any])
      for key in ["generated_at", "filter"] { context[key] = nil }
      json["context"] = context
      for side in ["baseline", "candidate"] { json[side] = (json[side] as? [String: Any])?["sessions"] }
      return json
    }
    let fromDigests = try compared(since: "2026-11-01")
    let fromSessions = try compared(since: "2026-11-01T00:00:00.001Z")
    #expect(NSDictionary(dictionary: fromDigests).isEqual(to: fromSessions))
    #expect((fromDigests["metrics"] as? [Any])?.isEmpty == false)
  }
}
