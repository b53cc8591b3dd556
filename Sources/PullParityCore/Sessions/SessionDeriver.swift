/// Runs one session's events through the state machine and derives what is stored for it.
public enum SessionDeriver {
  /// Derives a session from all of its events, in any order. `events` must not be empty.
  public static func derive(
    _ events: [RecordedEvent], profiles: ProfileCatalog, context: SessionContext = SessionContext()
  ) -> DerivedSession {
    derive(events, profiles: profiles, context: context, onStep: nil)
  }

  /// The same derivation, with the state after every event (for the session drill-down).
  public static func trace(
    _ events: [RecordedEvent], profiles: ProfileCatalog, context: SessionContext = SessionContext()
  ) -> (session: DerivedSession, steps: [SessionStep]) {
    var steps: [SessionStep] = []
    steps.reserveCapacity(events.count)
    let session = derive(events, profiles: profiles, context: context) { steps.append($0) }
    return (session, steps)
  }

  private static func derive(
    _ events: [RecordedEvent], profiles: ProfileCatalog, context: SessionContext,
    onStep: ((SessionStep) -> Void)?
  ) -> DerivedSession {
    precondition(!events.isEmpty, "a session has at least one event")
    // Sorting positions rather than events keeps their strings from being copied around; so does
    // comparing them through the buffer (the array's subscript copied both events of each compare).
    let order = events.withUnsafeBufferPointer { events in
      events.indices.sorted { RecordedEvent.inLogOrder(events[$0], events[$1]) }
    }
    let first = events[order[0]].event
    let last = events[order[order.count - 1]].event
    let profile = profiles.resolve(first.profileName)

    var state = SessionState()
    var violations: [Violation] = []
    var labels = SessionLabels()
    // Events are read in place through the buffer, never copied out of the array: a copy
    // retained and released every string of every event, a measured share of an ingest.
    events.withUnsafeBufferPointer { events in
      for index in order {
        let findings = SessionMachine.reduce(
          &state, events[index].event.payload, at: events[index].event.timestamp,
          screen: events[index].event.screen, profile: profile)
        if !findings.isEmpty { violations.append(contentsOf: findings) }
        labels.note(events[index].event)
        onStep?(SessionStep(recorded: events[index], stateAfter: state, findings: findings))
      }
    }
    let (metrics, endFindings, judgeAgainAt) = SessionMetrics.finalize(
      state, profile: profile, installID: labels.installID,
      horizon: max(context.horizon ?? last.timestamp, last.timestamp),
      previousRefreshEndedAt: context.previousRefreshEndedAt)
    violations.append(contentsOf: endFindings)
    return DerivedSession(
      sessionID: first.sessionID, app: first.app, platform: first.platform, profileName: profile.name,
      profileVersion: profile.version, appVersion: labels.appVersion, osVersion: labels.osVersion,
      device: labels.device, screen: state.screen ?? labels.screen, installID: labels.installID,
      empty: labels.empty, eventCount: events.count, startedAt: first.timestamp, endedAt: last.timestamp,
      finalPhase: state.phase, metrics: metrics, refreshStartedAt: state.refreshStartedAt,
      refreshEndedAt: state.indicatorHiddenAt, judgeAgainAt: judgeAgainAt, violations: violations)
  }
}
