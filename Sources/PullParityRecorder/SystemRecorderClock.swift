import Foundation

/// Wall-clock time read once, then advanced by a monotonic clock: like the web's
/// `performance.timeOrigin + performance.now()`, timestamps are sub-millisecond and never step
/// back when the system clock is adjusted mid-gesture, which would corrupt `visible_ms`.
public struct SystemRecorderClock: RecorderClock {
  private let originMilliseconds: Double
  private let origin: ContinuousClock.Instant

  public init() {
    originMilliseconds = Date().timeIntervalSince1970 * 1000
    origin = ContinuousClock.now
  }

  public func epochMilliseconds() -> Double {
    let elapsed = origin.duration(to: ContinuousClock.now).components
    return originMilliseconds + Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
  }
}
