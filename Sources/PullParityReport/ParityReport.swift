public import PullParityStore

/// Platforms compared per app (contract §6): what `pullparity report` prints.
public struct ParityReport: Equatable, Sendable, Encodable {
  /// Bumped on any change of this JSON's shape; documented in the README.
  public static let formatVersion = 1

  public var formatVersion: Int
  public var filter: SessionFilter
  public var groupedBy: GroupDimension
  public var tolerances: ParityTolerances
  public var apps: [AppParity]

  /// `false` when any group of any app is not at parity.
  public var atParity: Bool { !apps.flatMap(\.groups).contains { $0.atParity == false } }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case filter
    case groupedBy = "grouped_by"
    case tolerances
    case atParity = "at_parity"
    case apps
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(formatVersion, forKey: .formatVersion)
    try container.encode(filter, forKey: .filter)
    try container.encode(groupedBy, forKey: .groupedBy)
    try container.encode(tolerances, forKey: .tolerances)
    try container.encode(atParity, forKey: .atParity)
    try container.encode(apps, forKey: .apps)
  }
}
