import Foundation
import PullParityCore
import PullParityRecorder
import PullParityTestSupport
import Testing

/// The Android recorder (`clients/android`) writes its lines field for field as this recorder
/// does: the Kotlin test `GoldenGestureTest` records one fixed scripted gesture into
/// `clients/fixtures/scripted-gesture.android.jsonl`, and this test records the same calls,
/// with the same pinned clock, seeded ids and install id, and must write the same lines, the
/// v1.1 fields included (`install_id` last, `"gesture_observed":false` after `trigger`).
@Suite struct AndroidParityTests {
  static let fixture = RepositoryPaths.root.appendingPathComponent("clients/fixtures/scripted-gesture.android.jsonl")
  static let installID = "5c8f3e1a-2b4d-4f6a-9e0c-7d1b3a5f8e2c"

  /// Every reading is 16.375 ms after the last, from 1794812512591.125: the Kotlin test's clock.
  final class SteppingClock: RecorderClock, @unchecked Sendable {
    private let lock = NSLock()
    private var readings = 0.0

    func epochMilliseconds() -> Double {
      lock.withLock {
        defer { readings += 1 }
        return 1_794_812_512_591.125 + readings * 16.375
      }
    }
  }

  /// `GoldenGesture.record` in `clients/android`, call for call.
  static func record(_ recorder: PullParityRecorder) {
    let behaviour = recorder.behaviour
    func label(_ state: LabelState) { recorder.label(behaviour.label(for: state)!, state: state) }
    func move(_ distance: Double) {
      recorder.pullMove(distance: distance, offset: behaviour.indicatorOffset(forPull: distance))
    }

    // A pull that arms, released armed: a refresh with the profile's indicator and copy.
    recorder.pullStart()
    label(.pulling)
    move(12)
    move(25.5)
    move(33.5)
    recorder.armed(distance: 33.5)
    label(.ready)
    move(48.25)
    recorder.release(distance: 48.25)
    recorder.refreshStart()
    recorder.indicatorShown(behaviour.indicator)
    label(.refreshing)
    recorder.cacheInvalidated(key: "feed:page-1")
    recorder.fetchStart()
    recorder.loadComplete(ok: true)
    recorder.indicatorHidden()

    // Pulled past the threshold and back, released short: cancelled, on an empty screen.
    recorder.screen = "matches"
    recorder.empty = true
    recorder.pullStart()
    move(40)
    recorder.armed(distance: 40)
    move(20)
    recorder.disarmed(distance: 20)
    recorder.release(distance: 20)

    // Scrolling took over; a move without an offset.
    recorder.empty = false
    recorder.pullStart()
    recorder.pullMove(distance: 5)
    recorder.cancel(reason: "scroll")

    // A failed load: the error's text needs escaping, the message is not ASCII.
    recorder.pullStart()
    move(60)
    recorder.armed(distance: 60)
    recorder.release(distance: 60)
    recorder.refreshStart(trigger: .pull)
    recorder.indicatorShown(IndicatorConfig(kind: .balls, count: 4, staggerMs: 120.5, cycleMs: 800))
    recorder.fetchStart()
    recorder.loadComplete(ok: false, error: "offline \"wifi\" \\ \n\t\u{01}")
    recorder.errorShown(message: "Kunde inte ladda 🎾")
    recorder.contentCleared()
    recorder.indicatorHidden()

    // A callback-only refresh: the library's onRefresh, no finger seen. Kotlin:
    // `refreshStart(RefreshTrigger.PULL, gestureObserved = false)`.
    recorder.screen = nil
    recorder.refreshStart(trigger: .pull, gestureObserved: false)
    recorder.indicatorShown()
    recorder.loadComplete(ok: true)
    recorder.indicatorHidden()

    // Waveform bars revealed while pulling, then cancelled.
    recorder.screen = "feed"
    recorder.pullStart()
    recorder.reveal(progress: 0.25, visible: 2)
    move(20)
    recorder.reveal(progress: 1, visible: 5)
    recorder.cancel()

    // A tab's re-select: scroll to top, then a refresh of its own trigger.
    recorder.scrollToTop()
    recorder.refreshStart(trigger: .tabReselect)
    recorder.indicatorShown(IndicatorConfig(kind: .waveform, count: 5, staggerMs: 100, cycleMs: 500))
    recorder.loadComplete(ok: true)
    recorder.indicatorHidden()

    // A programmatic refresh hidden before its load; the late load and error join it.
    recorder.refreshStart(trigger: .programmatic)
    recorder.indicatorShown(IndicatorConfig(kind: .native))
    recorder.indicatorHidden()
    recorder.loadComplete(ok: true)
    recorder.errorShown()

    // A pull never released: a programmatic refresh abandons it.
    recorder.pullStart()
    move(30)
    recorder.refreshStart(trigger: .programmatic)
    recorder.indicatorShown()
    recorder.loadComplete(ok: true)
    recorder.indicatorHidden()
  }

  @Test func theSwiftRecorderWritesTheAndroidRecordersLinesForTheSameGesture() throws {
    let expected = try String(contentsOf: Self.fixture, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let lines = Collected<String>()
    let recorder = PullParityRecorder(
      app: "padel", appVersion: "3.9.0-android", platform: "android", profile: "padel", screen: "feed",
      osVersion: "14", device: "Pixel 8", installID: Self.installID, sink: lines.sink, clock: SteppingClock(),
      ids: UUIDv7Generator.seeded(7))
    Self.record(recorder)
    #expect(lines.all.count == expected.count)
    for (index, (line, want)) in zip(lines.all, expected).enumerated() {
      #expect(line == want, "line \(index + 1) of \(Self.fixture.path)")
    }
  }
}
