package import PullParityCore

/// A row of the `profiles` table: a profile sessions were derived with, as it was then.
package struct StoredProfile: Equatable, Sendable {
  package var profile: Profile
  /// 16 hex digits identifying the definition: two profiles with one name and version but other
  /// numbers have other hashes.
  package var contentHash: String

  package init(profile: Profile, contentHash: String) {
    self.profile = profile
    self.contentHash = contentHash
  }

  package var name: String { profile.name }
  package var version: Int { profile.version }
}
