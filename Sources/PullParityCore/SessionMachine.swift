/// The one state machine every session is judged by (contract §4, §9): pure, profile-driven,
/// shared by ingest, replay and the session drill-down, and small enough for a client to embed.
public enum SessionMachine {
  /// Applies `event` to `state` and returns the findings it raises.
  ///
  /// An event the phase does not allow is an `unexpected_event` finding and changes nothing:
  /// a bad log never crashes or derails the machine.
  public static func reduce(
    _ state: inout SessionState, _ event: Event, profile: Profile
  ) -> [Violation] {
    if state.screen == nil { state.screen = event.screen }
    let at = event.timestamp

    switch (state.phase, event.payload) {
    case (.idle, .pullStart):
      state.phase = .pulling
      state.pullStartedAt = at
      state.lastPullSampleAt = at
      return []

    case (.pulling, .pullMove(let distance, let offset)), (.armed, .pullMove(let distance, let offset)):
      recordSample(&state, at: at, distance: distance, offset: offset, profile: profile)
      guard profile.armThreshold != nil else { return [] }
      if profile.arms(atDistance: distance) {
        state.phase = .armed
        if state.machineArm == nil { state.machineArm = ArmPoint(at: at, distance: distance) }
      } else {
        state.phase = .pulling
      }
      return []

    case (.pulling, .armed(let distance)), (.armed, .armed(let distance)):
      if state.clientArm == nil { state.clientArm = ArmPoint(at: at, distance: distance) }
      // Without a threshold of its own the profile trusts the client to say when it armed.
      if profile.armThreshold == nil {
        state.phase = .armed
        if state.machineArm == nil { state.machineArm = ArmPoint(at: at, distance: distance) }
      }
      return []

    case (.pulling, .disarmed), (.armed, .disarmed):
      if profile.armThreshold == nil { state.phase = .pulling }
      return []

    case (.armed, .release(let distance)):
      state.releaseDistance = distance
      state.phase = .released
      return []

    case (.pulling, .release(let distance)):
      state.releaseDistance = distance
      state.phase = .cancelled
      return []

    case (.pulling, .cancel), (.armed, .cancel), (.released, .cancel):
      state.phase = .cancelled
      return []

    case (.pulling, .label(let text, let labelState)), (.armed, .label(let text, let labelState)),
      (.released, .label(let text, let labelState)), (.refreshing, .label(let text, let labelState)),
      (.holding, .label(let text, let labelState)):
      guard let copy = profile.labels, !copy.matches(text, for: labelState) else { return [] }
      state.labelViolations += 1
      return [
        Violation(
          kind: .labelText, at: at, expected: copy.text(for: labelState),
          actual: text)
      ]

    case (.idle, .reveal(let progress, let visible)), (.pulling, .reveal(let progress, let visible)),
      (.armed, .reveal(let progress, let visible)), (.released, .reveal(let progress, let visible)):
      guard let rule = profile.reveal else { return [] }
      let allowed = rule.barsAllowed(atProgress: progress)
      guard visible > allowed else { return [] }
      return [
        Violation(
          kind: .revealOrder, at: at,
          expected: "≤ \(allowed) bars at progress \(NumberText.format(progress))",
          actual: "\(visible) bars")
      ]

    case (.idle, .scrollToTop):
      state.scrolledToTop = true
      return []

    case (.refreshing, .refreshStart), (.holding, .refreshStart):
      return [
        Violation(
          kind: .doubleRefresh, at: at, expected: "no refresh while refreshing",
          actual: "refresh_start while \(state.phase.rawValue)")
      ]

    case (.released, .refreshStart(let trigger)):
      startRefresh(&state, at: at, trigger: trigger)
      return []

    case (.idle, .refreshStart(let trigger)) where trigger != .pull:
      startRefresh(&state, at: at, trigger: trigger)
      return []

    case (.refreshing, .indicatorShown(let config)), (.holding, .indicatorShown(let config)):
      if state.indicatorShownAt == nil { state.indicatorShownAt = at }
      return indicatorFindings(config, at: at, profile: profile)

    case (.refreshing, .cacheInvalidated), (.holding, .cacheInvalidated):
      state.cacheInvalidated = true
      return []

    case (.refreshing, .fetchStart), (.holding, .fetchStart):
      guard let screen = state.screen, profile.cacheInvalidationScreens.contains(screen),
        !state.cacheInvalidated
      else { return [] }
      return [
        Violation(
          kind: .cacheOrder, at: at, expected: "cache_invalidated before fetch_start on \(screen)",
          actual: "fetch_start with the cache entry still valid")
      ]

    case (.refreshing, .indicatorHidden), (.holding, .indicatorHidden):
      state.indicatorHiddenAt = at
      state.hiddenBeforeLoad = state.loadCompletedAt == nil
      state.phase = .done
      return []

    case (.refreshing, .loadComplete(let ok, _)):
      state.loadCompletedAt = at
      state.loadSucceeded = ok
      state.phase = .holding
      return []

    // A hide before the load is premature, but the load's end is still part of the story.
    case (.done, .loadComplete(let ok, _)) where state.loadCompletedAt == nil:
      state.loadCompletedAt = at
      state.loadSucceeded = ok
      return []

    case (.refreshing, .errorShown), (.holding, .errorShown), (.done, .errorShown):
      if state.loadSucceeded == false { state.errorShownAfterFailure = true }
      return []

    case (.refreshing, .contentCleared), (.holding, .contentCleared), (.done, .contentCleared):
      guard state.loadSucceeded == false else { return [] }
      return [
        Violation(
          kind: .contentClearedOnError, at: at, expected: "content kept after a failed load",
          actual: "content_cleared")
      ]

    default:
      return [
        Violation(
          kind: .unexpectedEvent, at: at, expected: "an event allowed while \(state.phase.rawValue)",
          actual: "\(event.type.rawValue) while \(state.phase.rawValue)")
      ]
    }
  }

  private static func recordSample(
    _ state: inout SessionState, at: Double, distance: Double, offset: Double?, profile: Profile
  ) {
    if let last = state.lastPullSampleAt {
      state.maxSampleGapMs = max(state.maxSampleGapMs ?? 0, at - last)
    }
    state.lastPullSampleAt = at
    if let offset {
      let error = abs(offset - distance * profile.resistance)
      state.maxOffsetError = max(state.maxOffsetError ?? 0, error)
    }
  }

  private static func startRefresh(_ state: inout SessionState, at: Double, trigger: RefreshTrigger) {
    state.phase = .refreshing
    state.trigger = trigger
    state.refreshStartedAt = at
  }

  private static func indicatorFindings(
    _ reported: IndicatorConfig?, at: Double, profile: Profile
  ) -> [Violation] {
    guard let reported, let expected = profile.indicator else { return [] }
    var differences: [String] = []
    if let want = expected.count, let got = reported.count, want != got {
      differences.append("count \(got)")
    }
    if let want = expected.staggerMs, let got = reported.staggerMs, want != got {
      differences.append("stagger \(NumberText.format(got)) ms")
    }
    if let want = expected.cycleMs, let got = reported.cycleMs, want != got {
      differences.append("cycle \(NumberText.format(got)) ms")
    }
    guard !differences.isEmpty else { return [] }
    return [
      Violation(
        kind: .indicatorConfig, at: at, expected: describe(expected),
        actual: differences.joined(separator: ", "))
    ]
  }

  private static func describe(_ config: IndicatorConfig) -> String {
    var parts: [String] = []
    if let count = config.count { parts.append("count \(count)") }
    if let stagger = config.staggerMs { parts.append("stagger \(NumberText.format(stagger)) ms") }
    if let cycle = config.cycleMs { parts.append("cycle \(NumberText.format(cycle)) ms") }
    return parts.joined(separator: ", ")
  }
}
