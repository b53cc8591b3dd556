package import PullParityCore

/// One app's parity under one profile version: its rules and one group per slice. An app whose
/// sessions were derived with two versions of its profile appears once per version.
package struct AppParity: Equatable, Sendable, Encodable {
  package var app: String
  /// The rules these sessions were derived and are judged with.
  package var profile: Profile
  package var profileHash: String
  /// Other versions of the profile that sessions of this app in the selection were derived with.
  package var otherProfileVersions: [Int]
  package var groups: [ParityGroup]

  enum CodingKeys: String, CodingKey {
    case app, profile, unit, groups
    case profileVersion = "profile_version"
    case profileHash = "profile_hash"
    case otherProfileVersions = "other_profile_versions"
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(app, forKey: .app)
    try container.encode(profile.name, forKey: .profile)
    try container.encode(profile.version, forKey: .profileVersion)
    try container.encode(profileHash, forKey: .profileHash)
    try container.encode(profile.unit, forKey: .unit)
    try container.encode(otherProfileVersions, forKey: .otherProfileVersions)
    try container.encode(groups, forKey: .groups)
  }
}
