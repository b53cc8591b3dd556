internal import PullParityCore
package import PullParityStore

/// Sessions counted into the digest of their cell, one session at a time: what a report is
/// built from, whether the sessions were read now or their digests were stored.
package struct CellDigests {
  package private(set) var byCell: [SessionCell: SessionDigest] = [:]
  private let profiles: SessionProfiles
  /// What digests count with, by profile name and version: looking a profile up for each
  /// session (a stored profile is decoded, a missing one hashed) would cost more than counting it.
  private var rules: [String: [Int: DigestProfile]] = [:]

  package init(profiles: SessionProfiles) {
    self.profiles = profiles
  }

  package mutating func add(_ session: SessionRecord) {
    byCell[SessionCell(session), default: SessionDigest()].add(session, profile: rules(of: session))
  }

  /// Adds the sessions of a digest counted before (a stored day's) to `cell`'s.
  package mutating func add(_ digest: SessionDigest, of cell: SessionCell) {
    if byCell[cell] == nil {
      byCell[cell] = digest
    } else {
      byCell[cell]!.merge(digest)
    }
  }

  private mutating func rules(of session: SessionRecord) -> DigestProfile {
    if let rules = rules[session.profile]?[session.profileVersion] { return rules }
    let rules = DigestProfile(profiles.profile(session.profile, version: session.profileVersion).profile)
    self.rules[session.profile, default: [:]][session.profileVersion] = rules
    return rules
  }
}
