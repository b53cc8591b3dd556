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
  /// The rate's interval (percent) at the level the run judged it at; `nil` without a verdict.
  package var interval: JudgedInterval?
  /// What the verdict is drawn from, until the run's figures are judged together.
  package var evidence: Evidence?

  package init(
    rule: ProfileRule, rate: Rate, budgetPercent: Double, verdict: Verdict, examples: [String],
    evidence: Evidence? = nil
  ) {
    (self.rule, self.rate, self.budgetPercent, self.verdict, self.examples) =
      (rule, rate, budgetPercent, verdict, examples)
    self.evidence = evidence
    if let evidence { record(FamilyJudgement.alone(evidence)) }
  }

  /// Takes the run's judgement of the rule.
  package mutating func record(_ judgement: FamilyJudgement.Judgement?) {
    guard let judgement else { return }
    (verdict, interval) = (judgement.verdict, judgement.interval)
  }

  enum CodingKeys: String, CodingKey {
    case rule, rate, verdict, examples, note
    case budgetPercent = "budget_percent"
    case intervalLow = "ci_low"
    case intervalHigh = "ci_high"
    case confidence = "ci_confidence"
  }

  /// `note` only where the rule was broken on too few sessions for a verdict (`tooFewNote`).
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rule, forKey: .rule)
    try container.encode(rate, forKey: .rate)
    try container.encode(budgetPercent, forKey: .budgetPercent)
    try container.encode(verdict, forKey: .verdict)
    try container.encode(Measured.percent(interval?.low), forKey: .intervalLow)
    try container.encode(Measured.percent(interval?.high), forKey: .intervalHigh)
    try container.encode(interval.map { Measured.rounded($0.confidence, places: 6) }, forKey: .confidence)
    try container.encode(examples, forKey: .examples)
    try container.encodeIfPresent(tooFewNote, forKey: .note)
  }
}
