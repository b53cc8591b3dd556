package import PullParityCore
package import PullParityStore

/// The profiles sessions were derived with, as the database stores them: reports judge and
/// label sessions with these, whatever profiles the reporting command itself knows.
package struct SessionProfiles: Sendable {
  /// By name byte for byte, as sessions name them: `café` and `cafe` + U+0301 are two profiles.
  private var stored: [ByteIdentity: [Int: StoredProfile]] = [:]
  private let fallback: ProfileCatalog

  /// - Parameter fallback: stands in for a profile the database lacks (a file written before
  ///   profiles were stored), when its name and version match.
  package init(stored rows: [StoredProfile], fallback: ProfileCatalog = ProfileCatalog()) {
    for row in rows { stored[ByteIdentity(row.name), default: [:]][row.version] = row }
    self.fallback = fallback
  }

  /// The profile a session derived with `name` version `version` is judged with.
  package func profile(_ name: String, version: Int) -> (profile: Profile, stamp: ProfileStamp) {
    if let row = stored[ByteIdentity(name)]?[version] {
      return (row.profile, ProfileStamp(name: name, version: version, contentHash: row.contentHash, stored: true))
    }
    var profile = fallback.resolve(name)
    if profile.version != version {
      profile = .unconstrained(named: name)
      profile.version = version
    }
    let hash = ProfileRegistry.definition(of: profile).hash
    return (profile, ProfileStamp(name: name, version: version, contentHash: hash, stored: false))
  }

  /// The profiles `sessions` were derived with, each once, by name and version.
  package func stamps(of sessions: some Sequence<SessionRecord>) -> [ProfileStamp] {
    stamps(of: sessions.lazy.map(SessionCell.init))
  }

  /// The profiles the sessions of `cells` were derived with, each once, by name and version.
  package func stamps(of cells: some Sequence<SessionCell>) -> [ProfileStamp] {
    var seen: [ByteIdentity: Set<Int>] = [:]
    var stamps: [ProfileStamp] = []
    for cell in cells where seen[ByteIdentity(cell.profile), default: []].insert(cell.profileVersion).inserted {
      stamps.append(profile(cell.profile, version: cell.profileVersion).stamp)
    }
    return stamps.sorted { (ByteIdentity($0.name), $0.version) < (ByteIdentity($1.name), $1.version) }
  }
}
