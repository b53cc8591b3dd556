/// One checklist item for one app and platform, with the numbers behind the verdict.
public struct QAItemResult: Equatable, Sendable, Codable {
  public var app: String
  public var platform: String
  public var check: QACheck
  public var seedItem: Int?
  public var title: String
  public var status: Verdict
  /// The numbers behind the verdict, in words.
  public var evidence: String
  /// Sessions that failed the item.
  public var failing: Int
  /// Sessions the item looked at.
  public var checked: Int
  /// Up to three failing session ids.
  public var examples: [String]

  enum CodingKeys: String, CodingKey {
    case app, platform, check, title, status, evidence, failing, checked, examples
    case seedItem = "seed_item"
  }
}
