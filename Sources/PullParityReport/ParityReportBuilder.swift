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

  package func build(_ sessions: [SessionRecord], context: ReportContext) -> ParityReport {
    var byApp: [AppKey: [SessionRecord]] = [:]
    for session in sessions {
      byApp[AppKey(app: session.app, profile: session.profile, version: session.profileVersion), default: []]
        .append(session)
    }
    var context = context
    context.span(sessions)
    let keys = byApp.keys.sorted()
    let apps = keys.map { key in
      let others = keys.filter { $0.app == key.app && $0 != key }.map(\.version)
      return appParity(key, byApp[key]!, otherVersions: others, context: context)
    }
    context.profiles = Array(Set(keys.map { profiles.profile($0.profile, version: $0.version).stamp }))
      .sorted { ($0.name, $0.version) < ($1.name, $1.version) }
    return ParityReport(context: context, groupedBy: dimension, apps: apps)
  }

  private func appParity(
    _ key: AppKey, _ sessions: [SessionRecord], otherVersions: [Int], context: ReportContext
  ) -> AppParity {
    let (profile, stamp) = profiles.profile(key.profile, version: key.version)
    let slices = Dictionary(grouping: sessions) { dimension.value(of: $0, profile: profile) }
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
