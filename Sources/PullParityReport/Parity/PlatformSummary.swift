package import PullParityCore

/// One platform's numbers within a parity group, and its rules judged on their own.
package struct PlatformSummary: Equatable, Sendable, Encodable {
  package var platform: String
  package var sessions: Int
  package var completed: Int
  package var cancelled: Int
  package var incomplete: Int
  /// Keyed by `ParityMetric` raw value: the distance and time metrics.
  package var distributions: [String: Distribution]
  /// Keyed by `ParityMetric` raw value: the rate metrics.
  package var rates: [String: Rate]
  /// The profile's rules, judged for this platform alone.
  package var rules: [RuleResult]

  package func distribution(_ metric: ParityMetric) -> Distribution? { distributions[metric.rawValue] }
  package func rate(_ metric: ParityMetric) -> Rate? { rates[metric.rawValue] }
  package func rule(_ rule: ProfileRule) -> RuleResult? { rules.first { $0.rule == rule } }
}
