/// v1.2: a judgement that waits for the data (docs/events.md §5): a refresh still running or an
/// armed release not yet followed at the end of what is stored. It is decided once the data of
/// the session's app and platform reaches `decidedAt`; until then it is pending, never "no
/// findings".
public struct PendingJudgement: Equatable, Sendable {
  /// The rule waiting: `stuck_refresh` or `dropped_refresh`.
  public var kind: ViolationKind
  /// Epoch ms the data must reach for the rule to be judged.
  public var decidedAt: Double

  public init(kind: ViolationKind, decidedAt: Double) {
    self.kind = kind
    self.decidedAt = decidedAt
  }
}
