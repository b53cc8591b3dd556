public import PullParityCore

/// One platform judged against one rule of its profile, on its own: the share of the sessions
/// judged that broke the rule, against the rule's budget.
public struct RuleResult: Equatable, Sendable, Encodable {
  public var rule: ProfileRule
  /// Sessions that broke the rule over the sessions the rule applies to.
  public var rate: Rate
  /// The share (percent) of sessions that may break the rule.
  public var budgetPercent: Double
  public var verdict: Verdict
  /// Up to three sessions that broke the rule, by id.
  public var examples: [String]

  enum CodingKeys: String, CodingKey {
    case rule, rate, verdict, examples
    case budgetPercent = "budget_percent"
  }
}
