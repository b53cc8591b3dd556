import Foundation
import PullParityRecorder

/// Virtual time for scripted gestures: `sleep` moves the clock to its deadline at once instead
/// of waiting, so a 3 s load takes no real time and every timestamp is known in advance.
/// Serves both the recorder (`ts`) and ``hold(atLeast:clock:isolation:_:)``.
final class ManualClock: Clock, RecorderClock, @unchecked Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    func duration(to other: Instant) -> Duration { other.offset - offset }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// Epoch milliseconds at offset zero.
  let origin: Double
  private let lock = NSLock()
  private var current = Instant(offset: .zero)

  init(origin: Double = 1_794_800_000_000) {
    self.origin = origin
  }

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    lock.withLock { current = max(current, deadline) }
  }

  func advance(by duration: Duration) {
    lock.withLock { current = current.advanced(by: duration) }
  }

  /// Milliseconds since offset zero.
  var elapsedMs: Double { Self.milliseconds(now.offset) }

  func epochMilliseconds() -> Double { origin + elapsedMs }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }
}
