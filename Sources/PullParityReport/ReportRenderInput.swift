package import PullParityStore

/// Everything a report format may draw. Only HTML reads the sessions and timelines
/// (see `ReportFormat.needsSessionDetail`), so callers of the other formats leave them empty.
package struct ReportRenderInput: Sendable {
  package var report: ParityReport
  /// Colours text output only.
  package var style: TextStyle
  package var sessions: [SessionRecord]
  package var timelines: [SessionTimeline]

  package init(
    report: ParityReport, style: TextStyle = .plain, sessions: [SessionRecord] = [],
    timelines: [SessionTimeline] = []
  ) {
    self.report = report
    self.style = style
    self.sessions = sessions
    self.timelines = timelines
  }

  package var html: HTMLReportInput {
    HTMLReportInput(report: report, sessions: sessions, timelines: timelines)
  }
}
