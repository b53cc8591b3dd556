public import PullParityCore

/// One platform's numbers within a parity group, and its rules judged on their own.
public struct PlatformSummary: Equatable, Sendable, Encodable {
  public var platform: String
  public var sessions: Int
  public var completed: Int
  public var cancelled: Int
  public var incomplete: Int
  /// Keyed by `ParityMetric` raw value: the distance and time metrics.
  public var distributions: [String: Distribution]
  /// Keyed by `ParityMetric` raw value: the rate metrics.
  public var rates: [String: Rate]
  /// The profile's rules, judged for this platform alone.
  public var rules: [RuleResult]

  public func distribution(_ metric: ParityMetric) -> Distribution? { distributions[metric.rawValue] }
  public func rate(_ metric: ParityMetric) -> Rate? { rates[metric.rawValue] }
  public func rule(_ rule: ProfileRule) -> RuleResult? { rules.first { $0.rule == rule } }
}
