import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityReport
@testable import PullParityStore

/// Hand-made sessions with figures worked out by hand, shared by the format and browser tests.
///
/// padel, pull: pwa (reference) 4 sessions, ios 3 + 1 cancelled, android 2; padel, programmatic:
/// one pwa session; ffci, pull: 2 ios sessions. The platforms' figures differ, so finding one in
/// a platform's column means the right one was printed there.
enum ReportFormatFixture {
  static let profiles = ProfileCatalog()

  static func record(
    _ id: String, app: String = "padel", _ platform: String, trigger: RefreshTrigger = .pull,
    outcome: SessionOutcome = .completed, arm: Double? = nil, clientArm: Double? = nil, timeToArm: Double? = nil,
    visible: Double? = nil, labelViolations: Int? = 0
  ) -> SessionRecord {
    let profile = profiles.resolve(app)
    let completed = outcome == .completed
    let flash = completed ? visible.map { $0 < profile.minHoldMs } : nil
    let armMismatch: Bool? =
      profile.armThreshold != nil ? clientArm.map { client in arm.map { abs(client - $0) > 2 } ?? true } : nil
    let metrics = SessionMetrics(
      outcome: outcome, trigger: trigger, timeToArmMs: timeToArm, armDistance: arm, clientArmDistance: clientArm,
      visibleMs: visible, flash: flash, prematureHide: completed ? false : nil, lateHide: completed ? false : nil,
      holdCompliant: flash.map { !$0 }, labelViolations: app == "ffci" ? nil : labelViolations,
      armMismatch: armMismatch)
    return SessionRecord(
      sessionID: id, app: app, profile: app, profileVersion: 2, platform: platform, appVersion: "1.0",
      screen: "feed", empty: false, startedAtMs: 1_795_000_000_000, metrics: metrics)
  }

  static let sessions: [SessionRecord] = [
    record("p1", "pwa", arm: 34, clientArm: 34, timeToArm: 200, visible: 1300),
    record("p2", "pwa", arm: 35, clientArm: 35, timeToArm: 220, visible: 1400),
    record("p3", "pwa", arm: 36, clientArm: 36.5, timeToArm: 240, visible: 1500),
    record("p4", "pwa", arm: 37, clientArm: 37, timeToArm: 260, visible: 900),
    record("p5", "pwa", trigger: .programmatic, visible: 1250),
    record("i1", "ios", arm: 33.5, clientArm: 26, timeToArm: 180, visible: 1250),
    record("i2", "ios", arm: 34.5, clientArm: 34, timeToArm: 190, visible: 1260, labelViolations: 1),
    record("i3", "ios", arm: 36.5, clientArm: 36, timeToArm: 300, visible: 1700),
    record("i4", "ios", outcome: .cancelled),
    record("a1", "android", arm: 40, clientArm: 40, timeToArm: 400, visible: 2000),
    record("a2", "android", arm: 42, clientArm: 42, timeToArm: 420, visible: 2100),
    record("f1", app: "ffci", "ios", arm: 70, clientArm: 70, timeToArm: 270, visible: 1600),
    record("f2", app: "ffci", "ios", arm: 72, clientArm: 72, timeToArm: 280, visible: 1700),
  ]

  /// Verdicts from a single session: the fixture is about figures and formats, not sample sizes.
  static let context = ReportContext(
    database: "fixture.sqlite", filter: SessionFilter(), toolVersion: "test", generatedAtMs: 1_795_000_000_000,
    policy: VerdictPolicy(minSessions: 1))

  static func build(_ sessions: [SessionRecord]) -> ParityReport {
    ParityReportBuilder(profiles: SessionProfiles(stored: [])).build(sessions, context: context)
  }

  static let report = build(sessions)

  /// pwa session p4 from the pull to the hide: 11 events, one flash.
  static let timeline: SessionTimeline = {
    var f = EventFactory(sessionID: "p4", app: "padel", platform: "pwa")
    let events = [
      f.at(0, .pullStart), f.at(50, .pullMove(distance: 10, offset: nil)),
      f.at(100, .pullMove(distance: 30, offset: nil)), f.at(150, .pullMove(distance: 37, offset: nil)),
      f.at(150, .armed(distance: 37), seq: 1), f.at(300, .release(distance: 40)),
      f.at(310, .refreshStart(trigger: .pull)),
      f.at(320, .indicatorShown(nil)), f.at(330, .fetchStart), f.at(600, .loadComplete(ok: true, error: nil)),
      f.at(1220, .indicatorHidden),
    ]
    let flash = ViolationRecord(
      sessionID: "p4", app: "padel", platform: "pwa", kind: .flash, atMs: f.origin + 1220,
      expected: "visible ≥ 1200 ms", actual: "visible 900 ms")
    return SessionTimeline(events: EventFactory.recorded(events), violations: [flash])
  }()

  static var renderInput: ReportRenderInput {
    ReportRenderInput(report: report, sessions: sessions, timelines: [timeline])
  }

  /// Marks each chart must draw: a box per platform with values plus a dot per value; a bar per
  /// platform and violation rate with a denominator; an event or violation mark per timeline point.
  static let expectedMarks: [String: Int] = [
    // ffci pull: ios only, 2 values each; flash and premature hide (no label copy, no threshold).
    "a0.g0.arm_distance": 1 + 2, "a0.g0.client_arm_distance": 1 + 2, "a0.g0.time_to_arm_ms": 1 + 2,
    "a0.g0.visible_ms": 1 + 2, "a0.g0.rates": 2,
    // padel pull: android 2, ios 3, pwa 4 values; 4 rates × 3 platforms.
    "a1.g0.arm_distance": 3 + 9, "a1.g0.client_arm_distance": 3 + 9, "a1.g0.time_to_arm_ms": 3 + 9,
    // Rates: 4 rates × 3 platforms, then the 4 rules some platform fails (hold compliance,
    // flash, label text, arm mismatch) × 3 platforms.
    "a1.g0.visible_ms": 3 + 9, "a1.g0.rates": 12 + 12,
    // padel programmatic: one pwa session, no arming; flash, premature hide, label violations.
    "a1.g1.visible_ms": 1 + 1, "a1.g1.rates": 3,
    "timeline.0": 11 + 1,
    // padel's 4 failing rules day by day: one day, a dot per platform.
    "trend.0": 3, "trend.1": 3, "trend.2": 3, "trend.3": 3,
  ]

  /// The figure the text report prints for `metric` of `platform`.
  static func figure(_ metric: ParityMetric, _ platform: PlatformSummary) -> String {
    metric.isRate
      ? NumberText.percent(platform.rate(metric)) : NumberText.oneDecimalOrDash(platform.distribution(metric)?.p50)
  }
}
