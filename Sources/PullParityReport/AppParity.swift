/// One app's parity: its profile and one group per slice.
public struct AppParity: Equatable, Sendable, Encodable {
  public var app: String
  public var profile: String
  public var profileVersion: Int
  public var groups: [ParityGroup]

  enum CodingKeys: String, CodingKey {
    case app, profile, groups
    case profileVersion = "profile_version"
  }
}
