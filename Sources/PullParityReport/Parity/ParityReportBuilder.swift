package import PullParityCore
package import PullParityStore

/// Builds the parity report from per-session rows: per app and profile version, per slice,
/// the platforms compared with the reference platform and each judged against its profile.
/// Sessions are counted into digests by cell (`CellDigests`), which the report merges by group.
package struct ParityReportBuilder {
  package var profiles: SessionProfiles
  package var dimension: GroupDimension

  package init(profiles: SessionProfiles, dimension: GroupDimension = .trigger) {
    self.profiles = profiles
    self.dimension = dimension
  }

  /// An app's sessions derived with one version of its profile. Names are compared and sorted
  /// byte for byte, as the database keeps them apart (`SessionCell`).
  private struct AppKey: Hashable, Comparable {
    var app: ByteIdentity
    var profile: ByteIdentity
    var version: Int

    init(_ cell: SessionCell) {
      (app, profile, version) = (ByteIdentity(cell.app), ByteIdentity(cell.profile), cell.profileVersion)
    }

    init(app: ByteIdentity, profile: ByteIdentity, version: Int) {
      (self.app, self.profile, self.version) = (app, profile, version)
    }

    static func < (lhs: AppKey, rhs: AppKey) -> Bool {
      (lhs.app, lhs.profile, lhs.version) < (rhs.app, rhs.profile, rhs.version)
    }
  }

  package func build(_ sessions: [SessionRecord], context: ReportContext) -> ParityReport {
    build(context: context) { add in sessions.forEach(add) }
  }

  /// Builds the report from the sessions `sessions` hands to `add` one at a time: each is
  /// counted into the digest of its cell and not kept.
  package func build(
    context: ReportContext, sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) rethrows -> ParityReport {
    var digests = CellDigests(profiles: profiles)
    try sessions { digests.add($0) }
    return build(context: context, digests: digests.byCell)
  }

  /// Builds the report from the digests of the selected sessions by cell: percentiles are
  /// always computed from every value of a group, never combined from smaller groups.
  package func build(context: ReportContext, digests: [SessionCell: SessionDigest]) -> ParityReport {
    var context = context
    var profileOf: [AppKey: Profile] = [:]
    // App, then slice, then platform: one pass over the cells, and each app handed only its own.
    var slicesOf: [AppKey: [ByteIdentity: [String: SessionDigest]]] = [:]
    for (cell, digest) in digests {
      context.include(digest)
      let app = AppKey(cell)
      if profileOf[app] == nil { profileOf[app] = profiles.profile(cell.profile, version: app.version).profile }
      let slice = ByteIdentity(dimension.value(of: cell, profile: profileOf[app]!))
      slicesOf[app, default: [:]][slice, default: [:]][cell.platform, default: SessionDigest()].merge(digest)
    }
    let keys = profileOf.keys.sorted()
    var keysOfApp: [ByteIdentity: [AppKey]] = [:]
    for key in keys { keysOfApp[key.app, default: []].append(key) }
    let apps = keys.map { key in
      let others = keysOfApp[key.app, default: []].filter { $0 != key }.map(\.version)
      return appParity(key, slicesOf[key] ?? [:], otherVersions: others, context: context)
    }
    // Once per profile name and version (keys of one profile differ by app), byte for byte.
    var stamps: [AppKey: ProfileStamp] = [:]
    for key in keys {
      let profile = AppKey(app: ByteIdentity(""), profile: key.profile, version: key.version)
      if stamps[profile] == nil { stamps[profile] = profiles.profile(key.profile.text, version: key.version).stamp }
    }
    context.profiles = stamps.sorted { $0.key < $1.key }.map(\.value)
    var report = ParityReport(context: context, groupedBy: dimension, apps: apps)
    report.judgeTogether()
    return report
  }

  private func appParity(
    _ key: AppKey, _ slices: [ByteIdentity: [String: SessionDigest]], otherVersions: [Int], context: ReportContext
  ) -> AppParity {
    let (profile, stamp) = profiles.profile(key.profile.text, version: key.version)
    let pull = ByteIdentity("pull")
    let order = slices.keys.sorted { lhs, rhs in
      // Pull refreshes first: they are what the parity spec is about.
      if (lhs == pull) != (rhs == pull) { return lhs == pull }
      return lhs < rhs
    }
    var judge = GroupJudge(profile: profile, context: context)
    judge.dimension = dimension.rawValue
    let groups = order.map { judge.group($0.text, slices[$0]!) }
    return AppParity(
      app: key.app.text, profile: profile, profileHash: stamp.contentHash, otherProfileVersions: otherVersions,
      groups: groups)
  }

  /// The profile's reference platform when present, else the first in name order.
  package static func referencePlatform(profile: Profile, among platforms: [String]) -> String? {
    if let preferred = profile.referencePlatform, platforms.contains(preferred) { return preferred }
    return platforms.sorted().first
  }
}
