public import PullParityCore

/// A `profiles` row without `stored_at` (the loading database stamps that): which rules a
/// distributed run derived its sessions with, so `load` can check them against its own.
public struct ProfileRow: Codable, Equatable, Hashable, Sendable {
  public var name: String
  public var version: Int
  public var contentHash: String
  public var definition: String

  enum CodingKeys: String, CodingKey {
    case name, version, contentHash = "content_hash", definition
  }

  public init(_ profile: Profile) {
    let (json, hash) = ProfileRegistry.definition(of: profile)
    self.init(name: profile.name, version: profile.version, contentHash: hash, definition: json)
  }

  public init(name: String, version: Int, contentHash: String, definition: String) {
    self.name = name
    self.version = version
    self.contentHash = contentHash
    self.definition = definition
  }
}
