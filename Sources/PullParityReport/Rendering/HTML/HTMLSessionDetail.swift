internal import PullParityCore
package import PullParityStore

/// What the HTML report draws beyond the report's figures, from the selection's digests by day
/// and cell (`DayDigests`, stored at ingest): per group and platform the values of the box plots
/// and the release histogram, the failing rules day by day, and the versions each platform
/// shipped. Holding every `SessionRecord` for these took 437 MB and 5.1 s at 10M events.
package struct HTMLSessionDetail: Sendable {
  struct GroupKey: Hashable {
    var app: ByteIdentity
    var version: Int
    var group: ByteIdentity
  }

  /// One platform's values in one group, as the digests hold them: each digest's array kept as
  /// it is (no copy, no room to grow), joined only while its chart is drawn.
  struct Values: Sendable {
    fileprivate var byMetric: [ParityMetric: [[Double]]] = [:]
    fileprivate var releaseParts: [[Double]] = []

    func values(_ metric: ParityMetric) -> [Double] { Array((byMetric[metric] ?? []).joined()) }

    /// Finger distances at the release.
    var releases: [Double] { Array(releaseParts.joined()) }
  }

  /// The metrics drawn as box plots, and where a digest keeps each one's values.
  private static let drawn = HTMLReportRenderer.distributionCharts.map { chart in
    (metric: chart.metric, index: SessionDigest.valueMetrics.firstIndex(of: chart.metric)!)
  }

  private(set) var values: [GroupKey: [String: Values]] = [:]
  private var profiles: [AppVersion: Profile] = [:]
  private let groupedBy: GroupDimension
  private var trendCounter: RuleTrend.Counter
  private var versions = ReleasePair.Versions()

  private struct AppVersion: Hashable {
    var app: ByteIdentity
    var version: Int
  }

  /// Nothing drawn beyond the report's figures.
  package init(report: ParityReport) {
    groupedBy = report.groupedBy
    trendCounter = RuleTrend.Counter(report)
    for app in report.apps {
      profiles[AppVersion(app: ByteIdentity(app.app), version: app.profile.version)] = app.profile
    }
  }

  /// The detail of the sessions `days` counted, which `report` was built from.
  package init(report: ParityReport, days: DayDigests) {
    self.init(report: report)
    days.forEachDigest { day, cell, digest in add(digest, of: cell, day: day) }
  }

  /// Counts the sessions of `cell` that started on `day` (days since 1970-01-01, UTC).
  package mutating func add(_ digest: SessionDigest, of cell: SessionCell, day: Int64) {
    guard digest.sessions > 0 else { return }
    trendCounter.add(digest, of: cell, day: Int(day))
    // The release review compares pulls, as `pullparity compare` does by default.
    if cell.trigger == RefreshTrigger.pull.rawValue { versions.add(cell) }
    let app = AppVersion(app: ByteIdentity(cell.app), version: cell.profileVersion)
    let slice = profiles[app].map { groupedBy.value(of: cell, profile: $0) } ?? ""
    let key = GroupKey(app: app.app, version: app.version, group: ByteIdentity(slice))
    // In place: a copy taken out and put back would copy every array gathered so far.
    for (metric, index) in Self.drawn where !digest.values[index].isEmpty {
      values[key, default: [:]][cell.platform, default: Values()].byMetric[metric, default: []].append(
        digest.values[index])
    }
    if !digest.releases.isEmpty {
      values[key, default: [:]][cell.platform, default: Values()].releaseParts.append(digest.releases)
    }
  }

  /// Each failing rule of each app, day by day.
  package var trends: [RuleTrend] { trendCounter.trends() }

  /// Each app's newest version and the one before it, per platform, among the pulls.
  package var releasePairs: [ReleasePair] { versions.pairs }

  /// The values of `app` (at its profile version) in `group`, by platform.
  func values(app: String, version: Int, group: String) -> [String: Values] {
    values[GroupKey(app: ByteIdentity(app), version: version, group: ByteIdentity(group))] ?? [:]
  }
}
