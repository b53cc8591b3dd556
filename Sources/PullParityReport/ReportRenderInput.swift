public import PullParityStore

/// Everything a report format may draw. Only HTML reads the sessions and timelines
/// (see `ReportFormat.needsSessionDetail`), so callers of the other formats leave them empty.
public struct ReportRenderInput: Sendable {
  public var report: ParityReport
  /// Colours text output only.
  public var style: TextStyle
  public var sessions: [SessionRecord]
  public var timelines: [SessionTimeline]

  public init(
    report: ParityReport, style: TextStyle = .plain, sessions: [SessionRecord] = [],
    timelines: [SessionTimeline] = []
  ) {
    self.report = report
    self.style = style
    self.sessions = sessions
    self.timelines = timelines
  }

  public var html: HTMLReportInput {
    HTMLReportInput(report: report, sessions: sessions, timelines: timelines)
  }
}
