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

  /// An app's sessions derived with one version of its profile.
  private struct AppKey: Hashable, Comparable {
    var app: String
    var profile: String
    var version: Int

    init(_ cell: SessionCell) {
      (app, profile, version) = (cell.app, cell.profile, cell.profileVersion)
    }

    static func < (lhs: AppKey, rhs: AppKey) -> Bool {
      (lhs.app, lhs.profile, lhs.version) < (rhs.app, rhs.profile, rhs.version)
    }
  }

  /// One slice of an app's sessions on one platform: what a platform summary counts.
  private struct Cell: Hashable {
    var app: AppKey
    var slice: String
    var platform: String
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
    var cells: [Cell: SessionDigest] = [:]
    for (cell, digest) in digests {
      context.include(digest)
      let app = AppKey(cell)
      if profileOf[app] == nil { profileOf[app] = profiles.profile(app.profile, version: app.version).profile }
      let key = Cell(app: app, slice: dimension.value(of: cell, profile: profileOf[app]!), platform: cell.platform)
      cells[key, default: SessionDigest()].merge(digest)
    }
    let keys = profileOf.keys.sorted()
    let apps = keys.map { key in
      let others = keys.filter { $0.app == key.app && $0 != key }.map(\.version)
      return appParity(key, cells.filter { $0.key.app == key }, otherVersions: others, context: context)
    }
    context.profiles = Array(Set(keys.map { profiles.profile($0.profile, version: $0.version).stamp }))
      .sorted { ($0.name, $0.version) < ($1.name, $1.version) }
    return ParityReport(context: context, groupedBy: dimension, apps: apps)
  }

  private func appParity(
    _ key: AppKey, _ cells: [Cell: SessionDigest], otherVersions: [Int], context: ReportContext
  ) -> AppParity {
    let (profile, stamp) = profiles.profile(key.profile, version: key.version)
    var slices: [String: [String: SessionDigest]] = [:]
    for (cell, digest) in cells { slices[cell.slice, default: [:]][cell.platform] = digest }
    let order = slices.keys.sorted { lhs, rhs in
      // Pull refreshes first: they are what the parity spec is about.
      if (lhs == "pull") != (rhs == "pull") { return lhs == "pull" }
      return lhs < rhs
    }
    var judge = GroupJudge(profile: profile, context: context)
    judge.dimension = dimension.rawValue
    let groups = order.map { judge.group($0, slices[$0]!) }
    return AppParity(
      app: key.app, profile: profile, profileHash: stamp.contentHash, otherProfileVersions: otherVersions,
      groups: groups)
  }

  /// The profile's reference platform when present, else the first in name order.
  package static func referencePlatform(profile: Profile, among platforms: [String]) -> String? {
    if let preferred = profile.referencePlatform, platforms.contains(preferred) { return preferred }
    return platforms.sorted().first
  }
}
