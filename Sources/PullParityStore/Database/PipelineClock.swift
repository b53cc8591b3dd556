package import Foundation

/// The time the store, the ingest and the replay read, injected from the top (the database
/// carries it), as TCA injects `date` and `continuousClock`: a test pins the ledger's
/// timestamps (`started_at`, `finished_at`, `recovered_at`, a profile's `stored_at`) and the
/// stage times, and asserts them exactly.
///
/// The recorder has its own `RecorderClock`: a client app links it without the store.
package struct PipelineClock: Sendable {
  /// Wall time, for what the ledger stores.
  package var now: @Sendable () -> Date
  /// Monotonic time since an arbitrary origin, for durations and deadlines: an adjustment of
  /// the system clock mid-run must not make a stage take negative time.
  package var elapsed: @Sendable () -> Duration

  package init(now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration) {
    self.now = now
    self.elapsed = elapsed
  }

  package static var system: PipelineClock {
    let origin = ContinuousClock.now
    return PipelineClock(now: { Date() }, elapsed: { origin.duration(to: .now) })
  }

  /// Time stands still at `date`: every duration measured with it is zero.
  package static func constant(_ date: Date) -> PipelineClock {
    PipelineClock(now: { date }, elapsed: { .zero })
  }

  /// Seconds from `start` (an `elapsed()` reading) to now.
  package func seconds(since start: Duration) -> Double {
    Self.seconds(elapsed() - start)
  }

  package static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
