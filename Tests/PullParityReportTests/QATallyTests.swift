import PullParityCore
import PullParityStore
import Testing

@testable import PullParityReport

/// Which sessions a checklist item judges: only those where what it measures was logged. A
/// flag the client's events left NULL is nothing checked, never a pass.
@Suite struct QATallyTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var item: QATally
    var metrics: SessionMetrics
    var empty = false
    var profile: Profile = BuiltInProfiles.padel
    /// nil: not judged; else whether the session failed the item.
    var failed: Bool?
    var testDescription: String { name }
  }

  static let completed = SessionMetrics(outcome: .completed, trigger: .pull, loadMs: 400)

  static func metrics(_ change: (inout SessionMetrics) -> Void) -> SessionMetrics {
    var m = completed
    change(&m)
    return m
  }

  static let cases: [Case] = [
    Case(name: "fast load, no indicator_shown", item: .fastLoads, metrics: completed, failed: nil),
    Case(
      name: "fast load that flashed", item: .fastLoads, metrics: metrics { ($0.visibleMs, $0.flash) = (500, true) },
      failed: true),
    Case(
      name: "fast load that held", item: .fastLoads, metrics: metrics { ($0.visibleMs, $0.flash) = (1300, false) },
      failed: false),
    Case(name: "late hide unknown", item: .lateHide, metrics: completed, failed: nil),
    Case(name: "late hide", item: .lateHide, metrics: metrics { $0.lateHide = true }, failed: true),
    Case(name: "premature hide unknown", item: .prematureHide, metrics: completed, failed: nil),
    Case(name: "in time", item: .prematureHide, metrics: metrics { $0.prematureHide = false }, failed: false),
    Case(name: "samples without offset", item: .dragTracking, metrics: metrics { $0.maxSampleGapMs = 16 }, failed: nil),
    Case(
      name: "offset followed", item: .dragTracking,
      metrics: metrics { ($0.maxSampleGapMs, $0.maxOffsetError) = (16, 0.3) }, failed: false),
    Case(
      name: "offset strayed", item: .dragTracking,
      metrics: metrics { ($0.maxSampleGapMs, $0.maxOffsetError) = (16, 3) },
      failed: true),
    Case(
      name: "samples too far apart", item: .dragTracking,
      metrics: metrics { ($0.maxSampleGapMs, $0.maxOffsetError) = (150, 0) }, failed: true),
    Case(
      name: "empty state, no label logged", item: .emptyState, metrics: metrics { $0.visibleMs = 1300 }, empty: true,
      failed: nil),
    Case(
      name: "empty state, right labels", item: .emptyState,
      metrics: metrics { ($0.visibleMs, $0.labelViolations) = (1300, 0) }, empty: true, failed: false),
    Case(
      name: "empty state, wrong label", item: .emptyState,
      metrics: metrics { ($0.visibleMs, $0.labelViolations) = (1300, 1) }, empty: true, failed: true),
    Case(name: "empty state, no indicator", item: .emptyState, metrics: completed, empty: true, failed: true),
    Case(
      name: "empty state of a profile without copy", item: .emptyState, metrics: metrics { $0.visibleMs = 900 },
      empty: true, profile: BuiltInProfiles.ffci, failed: false),
    Case(
      name: "tab re-select, hold unknown", item: .tabReselect, metrics: metrics { $0.trigger = .tabReselect },
      failed: nil),
    Case(
      name: "tab re-select that flashed", item: .tabReselect,
      metrics: metrics { ($0.trigger, $0.holdCompliant) = (.tabReselect, false) }, failed: true),
  ]

  @Test(arguments: cases)
  func judgesOnlyWhatWasMeasured(_ c: Case) {
    let session = SessionRecord(
      sessionID: "s", app: c.profile.name, profile: c.profile.name, profileVersion: 2, platform: "ios",
      appVersion: nil, screen: nil, empty: c.empty, startedAtMs: 0, metrics: c.metrics)
    #expect(c.item.verdict(session, profile: DigestProfile(c.profile)) == c.failed)
  }
}
