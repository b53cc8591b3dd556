/// Hands out `event_id`s and `session_id`s.
///
/// `mutating` so that a generator can keep its ordering state without a lock of its own: the
/// recorder only calls it under its lock.
public protocol EventIDSource: Sendable {
  /// A new identifier for something that happened at `timestamp` (epoch ms).
  mutating func nextID(at timestamp: Double) -> String
}
