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
}
