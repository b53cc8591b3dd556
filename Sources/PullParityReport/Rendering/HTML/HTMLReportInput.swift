package import PullParityStore

/// What the HTML report draws: the parity figures plus what the charts need beyond them, the
/// per-session values, an example failing session's events per failing rule and platform, and
/// the comparisons of each app's last two versions. Thresholds come from the profiles in
/// the report, the ones the sessions were judged with.
package struct HTMLReportInput: Sendable {
  package var report: ParityReport
  /// The sessions `report` was built from.
  package var sessions: [SessionRecord]
  package var timelines: [SessionTimeline]
  /// Each app's newest version against the one before it, per platform (`ReleasePair`), as
  /// `pullparity compare` judges them.
  package var releases: [CohortComparison]
  package var title: String

  package init(
    report: ParityReport, sessions: [SessionRecord], timelines: [SessionTimeline] = [],
    releases: [CohortComparison] = [], title: String = "Pull-to-refresh parity"
  ) {
    self.report = report
    self.sessions = sessions
    self.timelines = timelines
    self.releases = releases
    self.title = title
  }
}
