/// The checklist evaluated per app and platform: what `pullparity qa` prints.
package struct QAReport: Equatable, Sendable, Encodable {
  package static let formatVersion = 2

  package var context: ReportContext
  package var items: [QAItemResult]

  /// How `qa` ends: a failed item fails; no item with enough sessions does not pass.
  package var outcome: GateOutcome { context.policy.gate(items.map(\.status)) }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case context, outcome, items
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .formatVersion)
    try container.encode(context, forKey: .context)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(items, forKey: .items)
  }
}
