/// Where the recorder reads `ts` from: Unix epoch milliseconds, fraction kept.
///
/// Injected so that tests (and gesture scripts) decide time; apps use ``SystemRecorderClock``.
public protocol RecorderClock: Sendable {
  func epochMilliseconds() -> Double

  /// The clock to stamp the session that opens now with, and every event that joins it.
  ///
  /// The recorder calls it when an event opens a session, before it reads that event's `ts`,
  /// and never inside a session, so a clock may move to wall time here without corrupting a
  /// gesture's durations. By default the clock itself.
  func reanchored() -> Self
}

extension RecorderClock {
  public func reanchored() -> Self { self }
}
