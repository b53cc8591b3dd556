/// The values a filter could take in a database: what `report`, `qa` and `compare` list when a
/// filter matches nothing, so a typo (`iOS` for `ios`) is named rather than passed.
public struct FilterValues: Equatable, Sendable {
  public var apps: [String]
  public var platforms: [String]
  public var appVersions: [String]
  public var screens: [String]
  public var sessions: Int
}
