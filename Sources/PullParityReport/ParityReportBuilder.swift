package import PullParityCore
package import PullParityStore

/// Builds the parity report from per-session rows: per app and profile version, per slice,
/// the platforms compared with the reference platform and each judged against its profile.
/// Percentiles are always computed from the sessions of the group itself, never combined from
/// smaller groups.
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

  /// Builds the report from the sessions `sessions` hands to `add` one at a time: each is kept
  /// only in its cell, so nothing holds the whole selection besides.
  package func build(
    context: ReportContext, sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) rethrows -> ParityReport {
    var context = context
    var grouping = Cells(profiles: profiles, dimension: dimension)
    try sessions { session in
      context.include(session)
      grouping.add(session)
    }
    let cells = grouping.sessions
    let keys = Set(cells.keys.map(\.app)).sorted()
    let apps = keys.map { key in
      let others = keys.filter { $0.app == key.app && $0 != key }.map(\.version)
      return appParity(key, cells.filter { $0.key.app == key }, otherVersions: others, context: context)
    }
    context.profiles = Array(Set(keys.map { profiles.profile($0.profile, version: $0.version).stamp }))
      .sorted { ($0.name, $0.version) < ($1.name, $1.version) }
    return ParityReport(context: context, groupedBy: dimension, apps: apps)
  }

  /// The sessions by cell: each session is copied once, into its cell, and apps, slices and
  /// platforms follow from the cells' keys (a few hundred thousand sessions copied level by level
  /// was a measured cost of the report).
  private struct Cells {
    var profiles: SessionProfiles
    var dimension: GroupDimension
    var sessions: [Cell: [SessionRecord]] = [:]
    private var profileOf: [AppKey: Profile] = [:]

    init(profiles: SessionProfiles, dimension: GroupDimension) {
      self.profiles = profiles
      self.dimension = dimension
    }

    mutating func add(_ session: SessionRecord) {
      let app = AppKey(app: session.app, profile: session.profile, version: session.profileVersion)
      if profileOf[app] == nil { profileOf[app] = profiles.profile(app.profile, version: app.version).profile }
      let cell = Cell(app: app, slice: dimension.value(of: session, profile: profileOf[app]!), platform: session.platform)
      sessions[cell, default: []].append(session)
    }
  }

  private func appParity(
    _ key: AppKey, _ cells: [Cell: [SessionRecord]], otherVersions: [Int], context: ReportContext
  ) -> AppParity {
    let (profile, stamp) = profiles.profile(key.profile, version: key.version)
    var slices: [String: [String: [SessionRecord]]] = [:]
    for (cell, sessions) in cells { slices[cell.slice, default: [:]][cell.platform] = sessions }
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
