public import PullParityStore

/// The checklist evaluated per app and platform: what `pullparity qa` prints.
public struct QAReport: Equatable, Sendable, Encodable {
  public static let formatVersion = 1

  public var formatVersion: Int
  public var filter: SessionFilter
  public var items: [QAItemResult]

  /// No item failed (items without data do not fail).
  public var passed: Bool { !items.contains { $0.status == .fail } }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case filter, passed, items
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(formatVersion, forKey: .formatVersion)
    try container.encode(filter, forKey: .filter)
    try container.encode(passed, forKey: .passed)
    try container.encode(items, forKey: .items)
  }
}
