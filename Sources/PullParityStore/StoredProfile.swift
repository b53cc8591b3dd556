public import PullParityCore

/// A row of the `profiles` table: a profile sessions were derived with, as it was then.
public struct StoredProfile: Equatable, Sendable {
  public var profile: Profile
  /// 16 hex digits identifying the definition: two profiles with one name and version but other
  /// numbers have other hashes.
  public var contentHash: String

  public init(profile: Profile, contentHash: String) {
    self.profile = profile
    self.contentHash = contentHash
  }

  public var name: String { profile.name }
  public var version: Int { profile.version }
}
