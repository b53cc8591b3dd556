package import PullParityStore

/// Everything a report format may draw: the parity figures, plus what the HTML charts need
/// beyond them, the per-session values (`HTMLSessionDetail`), an example failing session's events
/// per failing rule and platform, and the comparisons of each app's last two versions. Only HTML
/// reads the detail, timelines, releases and title (see `ReportFormat.needsSessionDetail`), so callers of the other
/// formats leave them as they are. Thresholds come from the profiles in the report, the ones the
/// sessions were judged with.
package struct ReportRenderInput: Sendable {
  package var report: ParityReport
  /// Colours text output only.
  package var style: TextStyle
  /// What the charts draw of the sessions `report` was built from.
  package var detail: HTMLSessionDetail
  package var timelines: [SessionTimeline]
  /// Each app's newest version against the one before it, per platform (`ReleasePair`), as
  /// `pullparity compare` judges them.
  package var releases: [CohortComparison]
  package var title: String

  package init(
    report: ParityReport, style: TextStyle = .plain, sessions: [SessionRecord] = [],
    timelines: [SessionTimeline] = [], releases: [CohortComparison] = [], title: String = "Pull-to-refresh parity"
  ) {
    self.report = report
    self.style = style
    // A caller that holds the sessions (a test, a small selection) hands them over whole; the
    // command line sets `detail` from the stored digests.
    detail = HTMLSessionDetail(report: report, days: DayDigests(sessions, profiles: report.sessionProfiles))
    self.timelines = timelines
    self.releases = releases
    self.title = title
  }
}
