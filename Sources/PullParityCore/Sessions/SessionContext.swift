/// What a session's judgement needs from outside its own events: the rules of v1.1 that look
/// past one session.
///
/// Deriving stays pure: the store finds these facts (the data's progress, the previous refresh
/// on the same install and screen) and hands them in, and derives a session again when they
/// change.
public struct SessionContext: Equatable, Sendable {
  /// The newest event stored for the session's app and platform (epoch ms): how far the data
  /// has moved. A stuck or dropped refresh is judged only once it is past the rule's time, so
  /// a session at the edge of a log is not judged yet. `nil`: the session's own last event.
  public var horizon: Double?
  /// When the previous refresh on the same `install_id` and screen ended (its indicator hid, or
  /// v1.2, its screen was left); `nil` when there was none or it has not ended.
  public var previousRefreshEndedAt: Double?
  /// v1.2: when the previous refresh on the same `install_id` and screen started; `nil` when
  /// there was none (or none is known yet).
  public var previousRefreshStartedAt: Double?

  public init(horizon: Double? = nil, previousRefreshStartedAt: Double? = nil, previousRefreshEndedAt: Double? = nil) {
    self.horizon = horizon
    self.previousRefreshStartedAt = previousRefreshStartedAt
    self.previousRefreshEndedAt = previousRefreshEndedAt
  }
}
