/// Which rules a report judged with: a profile's name, version and content hash.
package struct ProfileStamp: Equatable, Hashable, Sendable, Encodable {
  package var name: String
  package var version: Int
  package var contentHash: String
  /// `false` when the database did not hold this profile (a file from before profiles were
  /// stored): the built-in or unconstrained profile of that name and version stood in.
  package var stored: Bool

  enum CodingKeys: String, CodingKey {
    case name, version, stored
    case contentHash = "content_hash"
  }
}
