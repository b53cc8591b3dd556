internal import PullParityCore
package import PullParityStore

/// Sessions counted into the digest of their cell, one session at a time: what a report is
/// built from, whether the sessions were read now or their digests were stored.
package struct CellDigests {
  package private(set) var byCell: [SessionCell: SessionDigest] = [:]
  private let profiles: SessionProfiles
  /// Cache screens by profile name and version: looking a profile up for each session (a
  /// stored profile is decoded, a missing one hashed) would cost more than counting it.
  private var cacheScreens: [String: [Int: Set<String>]] = [:]

  package init(profiles: SessionProfiles) {
    self.profiles = profiles
  }

  package mutating func add(_ session: SessionRecord) {
    byCell[SessionCell(session), default: SessionDigest()].add(session, cacheScreens: cacheScreens(of: session))
  }

  /// Adds the sessions of a digest counted before (a stored day's) to `cell`'s.
  package mutating func add(_ digest: SessionDigest, of cell: SessionCell) {
    if byCell[cell] == nil {
      byCell[cell] = digest
    } else {
      byCell[cell]!.merge(digest)
    }
  }

  private mutating func cacheScreens(of session: SessionRecord) -> Set<String> {
    if let screens = cacheScreens[session.profile]?[session.profileVersion] { return screens }
    let profile = profiles.profile(session.profile, version: session.profileVersion).profile
    let screens = Set(profile.cacheInvalidationScreens)
    cacheScreens[session.profile, default: [:]][session.profileVersion] = screens
    return screens
  }
}
