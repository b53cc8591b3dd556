package import PullParityCore

/// One platform judged against one rule of its profile, on its own: the share of the sessions
/// judged that broke the rule, against the rule's budget.
package struct RuleResult: Equatable, Sendable, Encodable {
  package var rule: ProfileRule
  /// Sessions that broke the rule over the sessions the rule applies to.
  package var rate: Rate
  /// The share (percent) of sessions that may break the rule.
  package var budgetPercent: Double
  package var verdict: Verdict
  /// Up to three sessions that broke the rule, by id.
  package var examples: [String]

  enum CodingKeys: String, CodingKey {
    case rule, rate, verdict, examples
    case budgetPercent = "budget_percent"
  }
}
