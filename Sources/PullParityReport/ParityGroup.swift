/// The platforms of one app side by side, for one slice of its sessions (a trigger, a screen).
public struct ParityGroup: Equatable, Sendable, Encodable {
  /// What the slice is, e.g. `trigger` = `pull`.
  public var dimension: String
  public var value: String
  public var referencePlatform: String?
  public var platforms: [PlatformSummary]
  public var comparisons: [MetricComparison]

  /// `false` when a comparison failed; `nil` with a single platform or no comparable data.
  public var atParity: Bool? {
    let verdicts = comparisons.compactMap(\.atParity)
    guard !verdicts.isEmpty else { return nil }
    return !verdicts.contains(false)
  }

  enum CodingKeys: String, CodingKey {
    case dimension, value, platforms, comparisons
    case referencePlatform = "reference_platform"
    case atParity = "at_parity"
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(dimension, forKey: .dimension)
    try container.encode(value, forKey: .value)
    try container.encode(referencePlatform, forKey: .referencePlatform)
    try container.encode(atParity, forKey: .atParity)
    try container.encode(platforms, forKey: .platforms)
    try container.encode(comparisons, forKey: .comparisons)
  }
}
