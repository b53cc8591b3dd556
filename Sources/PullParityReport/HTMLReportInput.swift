public import PullParityCore
public import PullParityStore

/// What the HTML report draws: the parity figures plus what the charts need beyond them, the
/// per-session values, the profiles' thresholds and a few failing sessions' events.
public struct HTMLReportInput: Sendable {
  public var report: ParityReport
  /// The sessions `report` was built from.
  public var sessions: [SessionRecord]
  public var profiles: ProfileCatalog
  public var timelines: [SessionTimeline]
  public var title: String

  public init(
    report: ParityReport, sessions: [SessionRecord], profiles: ProfileCatalog = ProfileCatalog(),
    timelines: [SessionTimeline] = [], title: String = "Pull-to-refresh parity"
  ) {
    self.report = report
    self.sessions = sessions
    self.profiles = profiles
    self.timelines = timelines
    self.title = title
  }
}
