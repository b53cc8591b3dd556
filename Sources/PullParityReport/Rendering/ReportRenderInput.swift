package import PullParityStore

/// Everything a report format may draw: the parity figures, plus what the HTML charts need
/// beyond them, the per-session values, an example failing session's events per failing rule and
/// platform, and the comparisons of each app's last two versions. Only HTML reads the sessions,
/// timelines, releases and title (see `ReportFormat.needsSessionDetail`), so callers of the other
/// formats leave them as they are. Thresholds come from the profiles in the report, the ones the
/// sessions were judged with.
package struct ReportRenderInput: Sendable {
  package var report: ParityReport
  /// Colours text output only.
  package var style: TextStyle
  /// The sessions `report` was built from.
  package var sessions: [SessionRecord]
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
    self.sessions = sessions
    self.timelines = timelines
    self.releases = releases
    self.title = title
  }
}
