/// One checklist item for one app and platform, with the numbers behind the verdict.
package struct QAItemResult: Equatable, Sendable, Codable {
  package var app: String
  package var platform: String
  package var check: QACheck
  package var seedItem: Int?
  package var title: String
  package var status: Verdict
  /// The numbers behind the verdict, in words.
  package var evidence: String
  /// Sessions that failed the item.
  package var failing: Int
  /// Sessions the item looked at.
  package var checked: Int
  /// Up to three failing session ids.
  package var examples: [String]
  /// For an item that counts one rule of the profile: the share (percent) of sessions that may
  /// break it, as the report's rule table judges it. Other items fail on any failing session.
  package var budgetPercent: Double?
  /// What the item's statistical verdicts are drawn from (its rule's rate against the budget,
  /// the client's p50 against the reference's), judged with the run's other items
  /// (`QAReport.judgeTogether`); none for an item that fails on any failing session.
  package var figures: [Evidence] = []

  enum CodingKeys: String, CodingKey {
    case app, platform, check, title, status, evidence, failing, checked, examples
    case seedItem = "seed_item"
    case budgetPercent = "budget_percent"
  }
}
