/// Runs one session's events through the state machine and derives what is stored for it.
public enum SessionDeriver {
  /// Derives a session from all of its events, in any order. `events` must not be empty.
  public static func derive(
    _ events: [RecordedEvent], profiles: ProfileCatalog, context: SessionContext = SessionContext()
  ) -> DerivedSession {
    reduce(events, profiles: profiles).finalize(context)
  }

  /// The same derivation, with the state after every event (for the session drill-down).
  public static func trace(
    _ events: [RecordedEvent], profiles: ProfileCatalog, context: SessionContext = SessionContext()
  ) -> (session: DerivedSession, steps: [SessionStep]) {
    var steps: [SessionStep] = []
    steps.reserveCapacity(events.count)
    let session = reduce(events, profiles: profiles) { steps.append($0) }.finalize(context)
    return (session, steps)
  }

  /// The events run through the machine, in log order: every part of the derivation that the
  /// session's context cannot change (`ReducedSession.finalize` adds that part).
  package static func reduce(
    _ events: [RecordedEvent], profiles: ProfileCatalog, onStep: ((SessionStep) -> Void)? = nil
  ) -> ReducedSession {
    precondition(!events.isEmpty, "a session has at least one event")
    // Sorting positions rather than events keeps their strings from being copied around; so does
    // comparing them through the buffer (the array's subscript copied both events of each compare).
    let order = events.withUnsafeBufferPointer { events in
      events.indices.sorted { RecordedEvent.inLogOrder(events[$0], events[$1]) }
    }
    let first = events[order[0]].event
    let profile = profiles.resolve(first.profileName)
    var reduced = ReducedSession(
      profile: profile, sessionID: first.sessionID, app: first.app, platform: first.platform,
      startedAt: first.timestamp, endedAt: events[order[order.count - 1]].event.timestamp, eventCount: events.count)
    // Events are read in place through the buffer, never copied out of the array: a copy
    // retained and released every string of every event, a measured share of an ingest.
    events.withUnsafeBufferPointer { events in
      for index in order {
        let findings = SessionMachine.reduce(
          &reduced.state, events[index].event.payload, at: events[index].event.timestamp,
          screen: events[index].event.screen, profile: profile)
        if !findings.isEmpty { reduced.violations.append(contentsOf: findings) }
        reduced.labels.note(events[index].event)
        onStep?(SessionStep(recorded: events[index], stateAfter: reduced.state, findings: findings))
      }
    }
    return reduced
  }

}
