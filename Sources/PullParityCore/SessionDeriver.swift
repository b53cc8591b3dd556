/// Runs one session's events through the state machine and derives what is stored for it.
public enum SessionDeriver {
  /// Derives a session from all of its events, in any order. `events` must not be empty.
  public static func derive(_ events: [RecordedEvent], profiles: ProfileCatalog) -> DerivedSession {
    derive(events, profiles: profiles, onStep: nil)
  }

  /// The same derivation, with the state after every event (for the session drill-down).
  public static func trace(
    _ events: [RecordedEvent], profiles: ProfileCatalog
  ) -> (session: DerivedSession, steps: [SessionStep]) {
    var steps: [SessionStep] = []
    steps.reserveCapacity(events.count)
    let session = derive(events, profiles: profiles) { steps.append($0) }
    return (session, steps)
  }

  private static func derive(
    _ events: [RecordedEvent], profiles: ProfileCatalog, onStep: ((SessionStep) -> Void)?
  ) -> DerivedSession {
    precondition(!events.isEmpty, "a session has at least one event")
    let ordered = events.sorted(by: RecordedEvent.inLogOrder)
    let first = ordered[0].event
    let profile = profiles.resolve(first.profileName)

    var state = SessionState()
    var violations: [Violation] = []
    for recorded in ordered {
      let findings = SessionMachine.reduce(&state, recorded.event, profile: profile)
      violations.append(contentsOf: findings)
      onStep?(SessionStep(recorded: recorded, stateAfter: state, findings: findings))
    }
    let (metrics, endFindings) = SessionMetrics.finalize(state, profile: profile)
    violations.append(contentsOf: endFindings)

    return DerivedSession(
      sessionID: first.sessionID,
      app: first.app,
      platform: first.platform,
      profileName: profile.name,
      profileVersion: profile.version,
      appVersion: ordered.lazy.compactMap(\.event.appVersion).first,
      osVersion: ordered.lazy.compactMap(\.event.osVersion).first,
      device: ordered.lazy.compactMap(\.event.device).first,
      screen: state.screen ?? ordered.lazy.compactMap(\.event.screen).first,
      empty: ordered.contains { $0.event.empty == true },
      eventCount: ordered.count,
      startedAt: first.timestamp,
      endedAt: ordered[ordered.count - 1].event.timestamp,
      finalPhase: state.phase,
      metrics: metrics,
      violations: violations
    )
  }
}
