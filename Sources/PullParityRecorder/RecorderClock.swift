/// Where the recorder reads `ts` from: Unix epoch milliseconds, fraction kept.
///
/// Injected so that tests (and gesture scripts) decide time; apps use ``SystemRecorderClock``.
public protocol RecorderClock: Sendable {
  func epochMilliseconds() -> Double
}
