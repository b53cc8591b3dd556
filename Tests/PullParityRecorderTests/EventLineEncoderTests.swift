import PullParityCore
import PullParityIngest
import PullParityRecorder
import PullParityTestSupport
import Testing

/// The recorder's JSON against the pipeline's own decoder: what is written is what is read.
@Suite struct EventLineEncoderTests {
  static let ts = 1_794_800_000_123.125

  static func event(_ payload: EventPayload, seq: Int? = 3, installID: String? = nil) -> Event {
    Event(
      eventID: "0194c3a1-0000-7000-8000-000000000001", sessionID: "session \"1\"", timestamp: ts, seq: seq,
      platform: "ios", app: "padel", profile: "padel", appVersion: "3.9.0", osVersion: "18.1",
      device: "iPhone16,1", screen: "Matches\\Today\n\t\u{01}", empty: true, installID: installID, payload: payload)
  }

  static let payloads: [EventPayload] = [
    .pullStart,
    .pullMove(distance: 35.1, offset: 25.272),
    .pullMove(distance: 0.1, offset: nil),
    .armed(distance: 33.4), .disarmed(distance: 30), .release(distance: 1e-3),
    .cancel(reason: nil), .cancel(reason: "scroll took over"),
    .label(text: "Släpp för att uppdatera", state: .ready),
    // The NFD spelling stays NFD: the copy check, not the log, decides they are the same.
    .label(text: "Sla\u{308}pp för att uppdatera", state: .ready),
    .label(text: "\"quoted\" \\ back 🎾 \u{2028}", state: .pulling),
    .refreshStart(trigger: .pull), .refreshStart(trigger: .tabReselect), .refreshStart(trigger: .programmatic),
    .refreshStart(trigger: .pull, gestureObserved: false),
    .refreshStart(trigger: .programmatic, gestureObserved: false),
    .indicatorShown(nil), .indicatorShown(IndicatorConfig(kind: .balls, count: 4, staggerMs: 120, cycleMs: 800)),
    .indicatorShown(IndicatorConfig(kind: .waveform, count: 5, staggerMs: 100.5, cycleMs: nil)),
    .indicatorHidden,
    .reveal(progress: 0.6, visible: 4), .scrollToTop, .cacheInvalidated(key: "page/1?x=\"y\""), .fetchStart,
    .loadComplete(ok: true, error: nil), .loadComplete(ok: false, error: "timed out\r\n"),
    .errorShown(message: nil), .errorShown(message: "Kunde inte uppdatera"), .contentCleared,
  ]

  @Test(arguments: payloads, [nil, "install-1"])
  func everyEventDecodesToItselfWithBothParsers(payload: EventPayload, installID: String?) {
    let event = Self.event(payload, installID: installID)
    let line = EventLineEncoder.line(for: event)
    for parser in ParserKind.allCases {
      var decoder = LineDecoder(parser)
      #expect(decoder.decode(line) == .event(event), "\(parser): \(line)")
    }
    #expect(!line.contains("\n") && !line.contains("\r"))
  }

  @Test func numbersAndFieldsAreWrittenExactlyAndInContractOrder() {
    let line = EventLineEncoder.line(for: Self.event(.pullMove(distance: 35.1, offset: 25.272), seq: 0))
    #expect(
      line == #"{"event_id":"0194c3a1-0000-7000-8000-000000000001","session_id":"session \"1\"","#
        + #""ts":1794800000123.125,"seq":0,"platform":"ios","app":"padel","type":"pull_move","#
        + #""distance":35.1,"offset":25.272,"profile":"padel","app_version":"3.9.0","os_version":"18.1","#
        + #""device":"iPhone16,1","screen":"Matches\\Today\n\t\u0001","empty":true}"#)
  }

  /// `gesture_observed` right after `trigger`, `install_id` last: the line the web recorder's
  /// test (`test_a_line_is_written_exactly_as_the_swift_recorder_writes_it`) expects from it,
  /// byte for byte, and the order the Android recorder follows.
  @Test func theV11FieldsAreWrittenWhereEveryRecorderWritesThem() {
    var event = Self.event(.refreshStart(trigger: .pull, gestureObserved: false), seq: 1, installID: "install-1")
    (event.eventID, event.sessionID) = ("01a1e26a-9c7b-7002-8000-000000000000", "01a1e26a-9c7b-7000-8000-000000000000")
    (event.platform, event.device) = ("pwa", "Pixel 9")
    #expect(
      EventLineEncoder.line(for: event)
        == #"{"event_id":"01a1e26a-9c7b-7002-8000-000000000000","session_id":"01a1e26a-9c7b-7000-8000-000000000000","#
        + #""ts":1794800000123.125,"seq":1,"platform":"pwa","app":"padel","type":"refresh_start","#
        + #""trigger":"pull","gesture_observed":false,"profile":"padel","app_version":"3.9.0","os_version":"18.1","#
        + #""device":"Pixel 9","screen":"Matches\\Today\n\t\u0001","empty":true,"install_id":"install-1"}"#)
    // Observed is the default: nothing is written for it.
    #expect(!EventLineEncoder.line(for: Self.event(.refreshStart(trigger: .pull))).contains("gesture_observed"))
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity])
  func aNonFiniteDistanceIsQuarantinedNamingTheField(distance: Double) {
    let line = EventLineEncoder.line(for: Self.event(.pullMove(distance: distance, offset: nil)))
    #expect(line.contains(#""distance":null"#))
    for parser in ParserKind.allCases {
      var decoder = LineDecoder(parser)
      guard case .rejected(let rejection) = decoder.decode(line) else {
        Issue.record("\(parser) accepted \(line)")
        continue
      }
      #expect(rejection.message.contains("distance"), "\(rejection)")
    }
  }
}
