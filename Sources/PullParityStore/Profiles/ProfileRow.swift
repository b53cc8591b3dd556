package import PullParityCore

/// A `profiles` row without `stored_at` (the loading database stamps that): which rules a
/// distributed run derived its sessions with, so `load` can check them against its own.
package struct ProfileRow: Codable, Equatable, Hashable, Sendable {
  package var name: String
  package var version: Int
  package var contentHash: String
  package var definition: String

  enum CodingKeys: String, CodingKey {
    case name, version
    case contentHash = "content_hash"
    case definition
  }

  package init(_ profile: Profile) {
    let (json, hash) = ProfileRegistry.definition(of: profile)
    self.init(name: profile.name, version: profile.version, contentHash: hash, definition: json)
  }

  package init(name: String, version: Int, contentHash: String, definition: String) {
    self.name = name
    self.version = version
    self.contentHash = contentHash
    self.definition = definition
  }
}
