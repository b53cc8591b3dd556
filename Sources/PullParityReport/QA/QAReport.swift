/// The checklist evaluated per app and platform: what `pullparity qa` prints.
package struct QAReport: Equatable, Sendable, Encodable {
  package static let formatVersion = 2

  package var context: ReportContext
  package var items: [QAItemResult]

  /// Judges the items' figures as one family (`FamilyJudgement`), as `report --check` judges
  /// its own: an item with figures fails when one of them fails; items without figures keep
  /// their verdict (any failing session fails them).
  mutating func judgeTogether() {
    let figures = items.flatMap(\.figures)
    let (judgements, summary) = FamilyJudgement.judge(figures)
    var next = judgements.makeIterator()
    for index in items.indices where !items[index].figures.isEmpty {
      let verdicts = items[index].figures.map { _ in next.next()!!.verdict }
      guard items[index].status.isJudged else { continue }
      items[index].status = verdicts.contains(.fail) ? .fail : .pass
    }
    context.family = summary
  }

  /// How `qa` ends: a failed item fails; no item with enough sessions does not pass.
  package var outcome: GateOutcome { context.policy.gate(items.map(\.status)) }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case context, outcome, items
    case rulesNotChecked = "rules_not_checked"
    case beyondTheRules = "items_beyond_the_rules"
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .formatVersion)
    try container.encode(context, forKey: .context)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(QACheck.rulesNotChecked, forKey: .rulesNotChecked)
    try container.encode(QACheck.beyondTheRules, forKey: .beyondTheRules)
    try container.encode(items, forKey: .items)
  }
}
