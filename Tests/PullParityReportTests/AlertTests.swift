import PullParityCore
import PullParityStore
import Testing

@testable import PullParityReport

/// What `collect --alert-webhook` posts: each app and platform's standing read from a report,
/// a change announced once, and a message whose text no log value can turn into markup.
@Suite struct AlertTests {
  typealias F = ReportFormatFixture

  static let gate = PlatformGate(app: "padel", platform: "ios")

  @Test(
    arguments: [
      (false, GateStatus.failing, GateChange.Kind.failing),
      (false, .passing, nil),
      (false, nil, nil),
      (true, .failing, nil),
      (true, .passing, .recovered),
      // Too few sessions say neither: a platform announced failing stays so until it passes.
      (true, nil, nil),
    ] as [(Bool, GateStatus?, GateChange.Kind?)])
  func aChangeIsAnnouncedOnce(announcedFailing: Bool, status: GateStatus?, change: GateChange.Kind?) {
    var ledger = AlertLedger(failing: announcedFailing ? [Self.gate] : [])
    let reading = GateReading(gate: Self.gate, status: status, sessions: 40, failing: [])
    let changes = ledger.changes([reading])
    #expect(changes.map(\.kind) == (change.map { [$0] } ?? []))
    for announced in changes { ledger.record(announced) }
    #expect(ledger.changes([reading]).isEmpty, "announced once")
    #expect(ledger.failing == (status == .failing || (announcedFailing && status == nil) ? [Self.gate] : []))
  }

  /// Twenty flashes in forty iOS sessions fail the comparison with the PWA and iOS's own flash
  /// rule: both are iOS's; the PWA, judged and clean, passes.
  @Test func eachPlatformStandsOnItsRulesAndItsComparisons() {
    let sessions =
      (0..<40).map { F.record("p\($0)", "pwa", visible: 1300) }
      + (0..<40).map { F.record("i\($0)", "ios", visible: $0 < 20 ? 900 : 1300) }
    let report = ParityReportBuilder(profiles: SessionProfiles(stored: []))
      .build(sessions, context: .init(database: "t", filter: .init(), toolVersion: "t", generatedAtMs: 0))
    let readings = report.gateReadings
    #expect(readings.map(\.gate.platform) == ["ios", "pwa"])
    #expect(readings.map(\.status) == [.failing, .passing])
    #expect(readings.map(\.sessions) == [40, 40])
    #expect(readings[0].failing.contains("pull: flash 50.0% (20/40), budget 0%"))
    #expect(readings[0].failing.contains { $0.hasPrefix("pull: flash_rate 50.0 against 0.0 on pwa") })
    #expect(readings[1].failing.isEmpty)
  }

  @Test func theMessageEscapesWhatTheLogWrote() throws {
    let gate = PlatformGate(app: "<!channel> & 'co'", platform: "ios")
    let change = GateChange(
      kind: .failing, reading: GateReading(gate: gate, status: .failing, sessions: 31, failing: ["pull: <b>"]))
    let message = AlertMessage(change, sinceMs: 0, untilMs: 1000, database: "a b.sqlite", link: nil)
    #expect(
      message.text == """
        :red_circle: PullParity: *&lt;!channel&gt; &amp; 'co'* on *ios* is failing (31 sessions):
        • pull: &lt;b&gt;
        `pullparity report --db 'a b.sqlite' --app '&lt;!channel&gt; &amp; '\\''co'\\''' --platform ios --since 1970-01-01T00:00:00.000Z`
        """)
    #expect(message.pullparity.app == gate.app)
    #expect(
      message.pullparity.command
        == "pullparity report --db 'a b.sqlite' --app '<!channel> & '\\''co'\\''' --platform ios --since 1970-01-01T00:00:00.000Z"
    )
  }
}
