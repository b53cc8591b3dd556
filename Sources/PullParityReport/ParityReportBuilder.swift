public import PullParityCore
public import PullParityStore

/// Builds the parity report from per-session rows. Percentiles are always computed from the
/// sessions of the group itself, never combined from smaller groups (contract §6).
public struct ParityReportBuilder {
  public var profiles: ProfileCatalog
  public var tolerances: ParityTolerances
  public var dimension: GroupDimension

  public init(
    profiles: ProfileCatalog, tolerances: ParityTolerances = .default, dimension: GroupDimension = .trigger
  ) {
    self.profiles = profiles
    self.tolerances = tolerances
    self.dimension = dimension
  }

  public func build(_ sessions: [SessionRecord], filter: SessionFilter) -> ParityReport {
    // One pass sorts every session's metrics into its app, slice and platform; metrics are
    // plain numbers, so this copies no strings however many sessions there are.
    var metrics: [String: [String: [String: [SessionMetrics]]]] = [:]
    var profileOfApp: [String: (name: String, version: Int)] = [:]
    for session in sessions {
      metrics[session.app, default: [:]][dimension.value(of: session), default: [:]][session.platform, default: []]
        .append(session.metrics)
      if profileOfApp[session.app] == nil { profileOfApp[session.app] = (session.profile, session.profileVersion) }
    }
    let apps = metrics.keys.sorted().map { app in
      appParity(app, metrics[app]!, profile: profileOfApp[app]!)
    }
    return ParityReport(
      formatVersion: ParityReport.formatVersion, filter: filter, groupedBy: dimension,
      tolerances: tolerances, apps: apps)
  }

  private func appParity(
    _ app: String, _ slices: [String: [String: [SessionMetrics]]], profile stored: (name: String, version: Int)
  ) -> AppParity {
    let profile = profiles.resolve(stored.name)
    let order = slices.keys.sorted { lhs, rhs in
      // Pull refreshes first: they are what the parity spec is about.
      if (lhs == "pull") != (rhs == "pull") { return lhs == "pull" }
      return lhs < rhs
    }
    let groups = order.map { slice in group(slice, slices[slice]!, profile: profile) }
    return AppParity(app: app, profile: profile.name, profileVersion: stored.version, groups: groups)
  }

  private func group(_ slice: String, _ byPlatform: [String: [SessionMetrics]], profile: Profile) -> ParityGroup {
    let platforms = byPlatform.keys.sorted().map { summary($0, byPlatform[$0]!) }
    let reference = Self.referencePlatform(profile: profile, among: platforms.map(\.platform))
    var comparisons: [MetricComparison] = []
    if let reference, let referenceSummary = platforms.first(where: { $0.platform == reference }) {
      for other in platforms where other.platform != reference {
        for metric in ParityMetric.allCases {
          comparisons.append(compare(metric, other, against: referenceSummary))
        }
      }
    }
    return ParityGroup(
      dimension: dimension.rawValue, value: slice, referencePlatform: platforms.count > 1 ? reference : nil,
      platforms: platforms, comparisons: comparisons)
  }

  /// The profile's reference platform when present, else the first in name order.
  public static func referencePlatform(profile: Profile, among platforms: [String]) -> String? {
    if let preferred = profile.referencePlatform, platforms.contains(preferred) { return preferred }
    return platforms.sorted().first
  }

  private func summary(_ platform: String, _ sessions: [SessionMetrics]) -> PlatformSummary {
    var distributions: [String: Distribution] = [:]
    var rates: [String: Rate] = [:]
    for metric in ParityMetric.allCases {
      if metric.isRate {
        rates[metric.rawValue] = Rate(sessions.lazy.map { metric.flag($0) })
      } else {
        distributions[metric.rawValue] = Distribution(sessions.compactMap { metric.value($0) })
      }
    }
    return PlatformSummary(
      platform: platform,
      sessions: sessions.count,
      completed: sessions.count { $0.outcome == .completed },
      cancelled: sessions.count { $0.outcome == .cancelled },
      incomplete: sessions.count { $0.outcome == .incomplete },
      distributions: distributions,
      rates: rates)
  }

  private func compare(
    _ metric: ParityMetric, _ platform: PlatformSummary, against reference: PlatformSummary
  ) -> MetricComparison {
    let value: Double?
    let referenceValue: Double?
    if metric.isRate {
      value = platform.rate(metric)?.value.map { $0 * 100 }
      referenceValue = reference.rate(metric)?.value.map { $0 * 100 }
    } else {
      value = platform.distribution(metric)?.p50
      referenceValue = reference.distribution(metric)?.p50
    }
    let tolerance = tolerances.tolerance(for: metric)
    var difference: Double?
    var atParity: Bool?
    if let value, let referenceValue {
      difference = value - referenceValue
      // A hair of slack for values that are equal in decimal but not in binary.
      atParity = abs(value - referenceValue) <= tolerance + 1e-9
    }
    return MetricComparison(
      metric: metric, platform: platform.platform, reference: reference.platform, value: value,
      referenceValue: referenceValue, difference: difference, tolerance: tolerance, atParity: atParity)
  }
}
