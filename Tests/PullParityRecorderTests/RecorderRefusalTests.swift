import PullParityCore
import PullParityIngest
import PullParityRecorder
import PullParityTestSupport
import Testing

/// Values the format forbids are refused, and only those: the recorder refuses a payload exactly
/// when the pipeline's decoder would quarantine the line it makes, and says which method and
/// field, in the web recorder's words (clients/web/tests/test_recorder.py has the same table).
@Suite struct RecorderRefusalTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var payload: EventPayload
    /// What `onError` hears; `nil` when the line is written.
    var refusal: String?
    var testDescription: String { "\(payload)" }
  }

  static let cases: [Case] = [
    Case(
      payload: .pullMove(distance: -3, offset: nil), refusal: "pullMove: distance must be a finite number ≥ 0, got -3"),
    Case(
      payload: .pullMove(distance: .nan, offset: 2), refusal: "pullMove: distance must be a finite number ≥ 0, got NaN"),
    Case(
      payload: .pullMove(distance: .infinity, offset: 3),
      refusal: "pullMove: distance must be a finite number ≥ 0, got Infinity"),
    Case(payload: .armed(distance: -0.5), refusal: "armed: distance must be a finite number ≥ 0, got -0.5"),
    Case(
      payload: .disarmed(distance: -.infinity), refusal: "disarmed: distance must be a finite number ≥ 0, got -Infinity"
    ),
    Case(payload: .release(distance: -0.001), refusal: "release: distance must be a finite number ≥ 0, got -0.001"),
    Case(
      payload: .reveal(progress: 1.2, visible: 1), refusal: "reveal: progress must be a number from 0 to 1, got 1.2"),
    Case(
      payload: .reveal(progress: -0.1, visible: 0), refusal: "reveal: progress must be a number from 0 to 1, got -0.1"),
    Case(
      payload: .reveal(progress: .nan, visible: 0), refusal: "reveal: progress must be a number from 0 to 1, got NaN"),
    Case(payload: .reveal(progress: 0.5, visible: -1), refusal: "reveal: visible must be an integer ≥ 0, got -1"),
    Case(
      payload: .reveal(progress: 0.5, visible: 9_000_000_000_000_000),
      refusal: "reveal: visible must be an integer ≥ 0, got 9000000000000000"),
    Case(
      payload: .indicatorShown(IndicatorConfig(count: 9_000_000_000_000_000)),
      refusal: "indicatorShown: indicator.count must be an integer, got 9000000000000000"),
    Case(
      payload: .indicatorShown(IndicatorConfig(count: .min)),
      refusal: "indicatorShown: indicator.count must be an integer, got -9223372036854775808"),
    // Allowed, however odd: ingest stores these lines (a wrong count is a finding, not bad data).
    Case(payload: .pullMove(distance: 0, offset: -4), refusal: nil),
    Case(payload: .pullMove(distance: -0.0, offset: nil), refusal: nil),
    Case(payload: .pullMove(distance: 3, offset: .nan), refusal: nil),  // `"offset":null`: no offset
    Case(payload: .release(distance: 0), refusal: nil),
    Case(payload: .reveal(progress: 0, visible: 0), refusal: nil),
    Case(payload: .reveal(progress: 1, visible: 5), refusal: nil),
    Case(
      payload: .indicatorShown(IndicatorConfig(kind: .native, count: 0, staggerMs: -1, cycleMs: .infinity)),
      refusal: nil),
    Case(payload: .indicatorShown(IndicatorConfig(count: -2)), refusal: nil),
    Case(payload: .indicatorShown(IndicatorConfig(count: 8_999_999_999_999_999)), refusal: nil),
    Case(payload: .refreshStart(trigger: .tabReselect, gestureObserved: false), refusal: nil),
    Case(payload: .label(text: "", state: .refreshing), refusal: nil),
    Case(payload: .cacheInvalidated(key: ""), refusal: nil),
  ]

  @Test(arguments: cases)
  func aValueIsRefusedExactlyWhenIngestWouldQuarantineItsLine(_ test: Case) {
    let lines = Collected<String>()
    let errors = Collected<RecorderError>()
    let recorder = PullParityRecorder(
      app: "phlock", installID: "edges", sink: lines.sink, clock: ManualClock(), ids: UUIDv7Generator.seeded(),
      onError: errors.append)
    recorder.record(test.payload)

    // The line the recorder would have written, judged by both of the pipeline's parsers.
    let line = EventLineEncoder.line(
      for: Event(
        eventID: "e-1", sessionID: "s-1", timestamp: 1_794_800_000_000, seq: 0, platform: "ios", app: "phlock",
        installID: "edges", payload: test.payload))
    for parser in ParserKind.allCases {
      var decoder = LineDecoder(parser)
      switch (decoder.decode(line), test.refusal) {
      case (.event, nil): break
      case (.rejected(let rejection), let refusal?):
        let field = refusal.split(separator: " ")[1]
        #expect(rejection.message.contains("`\(field)`"), "\(parser): \(rejection.message)")
      case (let decoded, _): Issue.record("\(parser) decodes \(line) as \(decoded)")
      }
    }
    if let refusal = test.refusal {
      #expect(lines.all.isEmpty)
      #expect(errors.all.map(\.description) == [refusal])
      #expect(recorder.currentSessionID == nil, "a refused event changed the session")
    } else {
      #expect(errors.all.isEmpty)
      #expect(lines.all.count == 1)
    }
  }

  /// The typed methods name themselves; a refused event leaves the session as it was, and the
  /// next good one carries on in it with the next `seq`.
  @Test func aRefusedCallChangesNothingAndTheNextCarriesOn() {
    let lines = Collected<String>()
    let errors = Collected<RecorderError>()
    let recorder = PullParityRecorder(
      app: "padel", sink: lines.sink, clock: ManualClock(), ids: UUIDv7Generator.seeded(), onError: errors.append)
    recorder.pullStart()
    recorder.pullMove(distance: -3)
    recorder.release(distance: .nan)
    recorder.pullMove(distance: 40)
    recorder.reveal(progress: 2, visible: 1)
    recorder.release(distance: 40)
    let events = PullParityRecorderTests.decode(lines.all)
    #expect(events.map(\.payload) == [.pullStart, .pullMove(distance: 40, offset: nil), .release(distance: 40)])
    #expect(events.map(\.seq) == [0, 1, 2])
    #expect(Set(events.map(\.sessionID)).count == 1)
    #expect(
      errors.all == [
        RecorderError(method: "pullMove", field: "distance", requirement: "a finite number ≥ 0", value: "-3"),
        RecorderError(method: "release", field: "distance", requirement: "a finite number ≥ 0", value: "NaN"),
        RecorderError(method: "reveal", field: "progress", requirement: "a number from 0 to 1", value: "2"),
      ])
  }

  /// Without `onError` a refusal is silent: still no line, and nothing thrown.
  @Test func withoutOnErrorARefusalIsSilent() {
    let lines = Collected<String>()
    let recorder = PullParityRecorder(app: "padel", sink: lines.sink)
    recorder.pullMove(distance: -1)
    #expect(lines.all.isEmpty)
  }
}
