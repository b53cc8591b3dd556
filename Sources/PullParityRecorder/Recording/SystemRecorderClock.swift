import Foundation

/// Wall-clock time advanced by a monotonic clock, anchored to wall time again when a session
/// opens: like the web recorder's clock, and by the same rule.
///
/// Inside a session `ts` is the anchor plus monotonic time: sub-millisecond, and never stepping
/// back when the system clock is adjusted mid-gesture, which would corrupt `visible_ms`. Over
/// hours the two drift apart (NTP slews or steps the wall clock, the user sets it), so
/// ``reanchored()`` reads both again and adopts the new wall-minus-monotonic offset when it
/// moved by more than 1,000 ms: the pipeline's days and session order follow wall time.
public struct SystemRecorderClock: RecorderClock {
  /// Below it, following wall time would only let a back-to-back session start before the last
  /// one ended (a slew of a few ms) and move the anchor on the jitter of reading two clocks one
  /// after the other; no UTC day or session order worth fixing is wrong by less than a second.
  /// Above it are the drifts that matter: a clock stepped or set by hand, a device that slept.
  private static let reanchorThresholdMilliseconds = 1_000.0

  private let wallMilliseconds: @Sendable () -> Double
  private let monotonicMilliseconds: @Sendable () -> Double
  /// Wall time minus monotonic time, read when the clock was last anchored.
  private var offset: Double

  public init() {
    let start = ContinuousClock.now
    self.init(
      wallMilliseconds: { Date().timeIntervalSince1970 * 1000 },
      monotonicMilliseconds: {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
      })
  }

  /// The two time sources, in milliseconds: epoch time, and a clock that never steps back
  /// (from any origin). Injected by tests to move one without the other.
  package init(
    wallMilliseconds: @escaping @Sendable () -> Double, monotonicMilliseconds: @escaping @Sendable () -> Double
  ) {
    self.wallMilliseconds = wallMilliseconds
    self.monotonicMilliseconds = monotonicMilliseconds
    offset = Self.offset(wallMilliseconds, monotonicMilliseconds)
  }

  public func epochMilliseconds() -> Double {
    offset + monotonicMilliseconds()
  }

  public func reanchored() -> Self {
    let current = Self.offset(wallMilliseconds, monotonicMilliseconds)
    guard abs(current - offset) > Self.reanchorThresholdMilliseconds else { return self }
    var clock = self
    clock.offset = current
    return clock
  }

  private static func offset(_ wall: () -> Double, _ monotonic: () -> Double) -> Double {
    wall() - monotonic()
  }
}
