package import PullParityStore

/// What the HTML report draws: the parity figures plus what the charts need beyond them, the
/// per-session values and a few failing sessions' events. Thresholds come from the profiles in
/// the report, the ones the sessions were judged with.
package struct HTMLReportInput: Sendable {
  package var report: ParityReport
  /// The sessions `report` was built from.
  package var sessions: [SessionRecord]
  package var timelines: [SessionTimeline]
  package var title: String

  package init(
    report: ParityReport, sessions: [SessionRecord], timelines: [SessionTimeline] = [],
    title: String = "Pull-to-refresh parity"
  ) {
    self.report = report
    self.sessions = sessions
    self.timelines = timelines
    self.title = title
  }
}
