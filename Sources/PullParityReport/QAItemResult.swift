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

  enum CodingKeys: String, CodingKey {
    case app, platform, check, title, status, evidence, failing, checked, examples
    case seedItem = "seed_item"
  }
}
