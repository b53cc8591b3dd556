/// A session's events run through the machine (`SessionDeriver.reduce`): all of its derivation
/// that its context cannot change. The rules that look past one session (docs/events.md §5)
/// read the context only in the last step, so a session judged again with a new context needs
/// `finalize`, not its events: ingest keeps this for the sessions whose judgement is still open
/// and the cross-session judge finalizes them without reading their lines back.
package struct ReducedSession: Sendable {
  let profile: Profile
  let sessionID: String
  let app: String
  let platform: String
  let startedAt: Double
  let endedAt: Double
  let eventCount: Int
  var state = SessionState()
  var violations: [Violation] = []
  var labels = SessionLabels()

  init(
    profile: Profile, sessionID: String, app: String, platform: String, startedAt: Double, endedAt: Double,
    eventCount: Int
  ) {
    self.profile = profile
    self.sessionID = sessionID
    self.app = app
    self.platform = platform
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.eventCount = eventCount
  }

  /// The session as derived with `context`.
  package func finalize(_ context: SessionContext) -> DerivedSession {
    let (metrics, endFindings, judgeAgainAt, pending) = SessionMetrics.finalize(
      state, profile: profile, installID: labels.installID,
      horizon: max(context.horizon ?? endedAt, endedAt),
      previous: context)
    var session = DerivedSession(
      sessionID: sessionID, app: app, platform: platform, profileName: profile.name,
      profileVersion: profile.version, appVersion: labels.appVersion, osVersion: labels.osVersion,
      device: labels.device, screen: state.screen ?? labels.screen, installID: labels.installID,
      empty: labels.empty, eventCount: eventCount, startedAt: startedAt, endedAt: endedAt,
      finalPhase: state.phase, metrics: metrics, refreshStartedAt: state.refreshStartedAt,
      refreshEndedAt: state.indicatorHiddenAt ?? (state.phase == .abandoned ? state.screenLeftAt : nil),
      judgeAgainAt: judgeAgainAt, violations: violations + endFindings)
    session.pending = pending
    return session
  }
}
