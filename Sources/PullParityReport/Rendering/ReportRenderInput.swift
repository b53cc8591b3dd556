package import PullParityStore

/// Everything a report format may draw. Only HTML reads the sessions, timelines and releases
/// (see `ReportFormat.needsSessionDetail`), so callers of the other formats leave them empty.
package struct ReportRenderInput: Sendable {
  package var report: ParityReport
  /// Colours text output only.
  package var style: TextStyle
  package var sessions: [SessionRecord]
  package var timelines: [SessionTimeline]
  package var releases: [CohortComparison]

  package init(
    report: ParityReport, style: TextStyle = .plain, sessions: [SessionRecord] = [],
    timelines: [SessionTimeline] = [], releases: [CohortComparison] = []
  ) {
    self.report = report
    self.style = style
    self.sessions = sessions
    self.timelines = timelines
    self.releases = releases
  }

  package var html: HTMLReportInput {
    HTMLReportInput(report: report, sessions: sessions, timelines: timelines, releases: releases)
  }
}
