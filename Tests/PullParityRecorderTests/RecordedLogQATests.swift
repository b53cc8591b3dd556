import Foundation
import PullParityCore
import PullParityRecorder
import PullParityTestSupport
import Testing

/// The whole loop with the built binary: a scripted screen records through the recorder,
/// `pullparity ingest` stores the file, `pullparity qa` gates it. The faithful screen passes;
/// each planted defect fails its checklist item and nothing else.
@Suite struct RecordedLogQATests {
  enum Defect: String, CaseIterable {
    case none, noHold, labelTypo, armsOnRawDistance

    /// The checklist items (seed 000) that must fail.
    var failingItems: [String] {
      switch self {
      case .none: []
      // No hold breaks the hold compliance rule too, whose item fails with it as in `report`.
      case .noHold: ["hold_compliant", "no_flash"]
      // The empty-state item checks that empty screens show the same copy, so a typo shown
      // on every screen fails it too.
      case .labelTypo: ["empty_state", "label_copy"]
      case .armsOnRawDistance: ["arm_parity"]
      }
    }
  }

  /// Pulls short and long, fast and slow loads, on a full and an empty screen.
  static func record(_ defect: Defect, into path: String) async throws {
    let clock = ManualClock()
    let recorder = PullParityRecorder(
      app: "padel", appVersion: "3.9.0", screen: "matches", sink: FileEventSink(path: path), clock: clock)
    var screen = ScriptedScreen(recorder: recorder, clock: clock)
    if defect == .labelTypo { screen.labelOverrides[.ready] = "Släpp för att uppdatera!" }
    screen.armsOnRawDistance = defect == .armsOnRawDistance
    for (index, load) in [150.0, 600, 1100, 1800, 4000, 250].enumerated() {
      recorder.empty = index == 5
      let maxDistance = 40.0 + Double(index) * 12
      screen.pull(through: Array(stride(from: 4.0, through: 20, by: 4)), every: .milliseconds(16))
      clock.advance(by: .seconds(2))
      screen.pull(through: Array(stride(from: 4.0, through: maxDistance, by: 4)), every: .milliseconds(16))
      try await screen.refresh(load: .milliseconds(load), holding: defect != .noHold)
      clock.advance(by: .seconds(30))
    }
  }

  @Test(arguments: Defect.allCases)
  func qaPassesTheFaithfulScreenAndFailsExactlyThePlantedItem(_ defect: Defect) async throws {
    let dir = try TemporaryDirectory()
    let log = dir.path("padel-ios.jsonl")
    let db = dir.path("qa.sqlite")
    try await Self.record(defect, into: log)

    // `--strict` exits 1 on a single quarantined line.
    let ingest = try CommandRun.pullparity(["ingest", "--strict", "--quiet", "--db", db, log])
    #expect(ingest.exitCode == 0, "\(ingest.stdout)\(ingest.stderr)")
    // Six sessions judge the loop, not the statistics: a verdict from one session is asked for
    // explicitly (the minimum sample has its own tests).
    let qa = try CommandRun.pullparity([
      "qa", "--db", db, "--app", "padel", "--platform", "ios", "--format", "json", "--min-sessions", "1",
    ])
    #expect(qa.exitCode == (defect == .none ? 0 : 1), "\(qa.stdout)")
    let items = try #require(
      (try JSONSerialization.jsonObject(with: Data(qa.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]])
    let failing = items.filter { $0["status"] as? String == "fail" }.compactMap { $0["check"] as? String }
    #expect(failing.sorted() == defect.failingItems, "\(qa.stdout)")
    // Every item was judged on sessions, none passed for want of data.
    let seedItems = items.filter { $0["seed_item"] is Int }
    #expect(seedItems.count == 6)
    #expect(seedItems.allSatisfy { ($0["checked"] as? Int ?? 0) > 0 }, "\(qa.stdout)")
  }
}
