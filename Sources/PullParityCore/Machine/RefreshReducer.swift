/// The refresh's life: it starts (once), the indicator shows, the load completes, the indicator
/// hides and the session is done.
enum RefreshReducer {
  static func reduce(_ state: inout SessionState, _ payload: EventPayload, at: Double, profile: Profile) -> [Violation]?
  {
    switch (state.phase, payload) {
    case (.refreshing, .refreshStart), (.holding, .refreshStart):
      return [
        Violation(
          kind: .doubleRefresh, at: at, expected: "no refresh while refreshing",
          actual: "refresh_start while \(state.phase.rawValue)")
      ]
    case (.released, .refreshStart(let trigger, _)):
      start(&state, at: at, trigger: trigger)
    // A refresh no finger started, or a pull only the app's `onRefresh` saw.
    case (.idle, .refreshStart(let trigger, let observed)) where trigger != .pull || !observed:
      start(&state, at: at, trigger: trigger)
    case (.pulling, .refreshStart(.pull, true)), (.armed, .refreshStart(.pull, true)):
      return startDuringDrag(&state, at: at, profile: profile)
    case (.refreshing, .indicatorShown(let config)), (.holding, .indicatorShown(let config)):
      if state.indicatorShownAt == nil { state.indicatorShownAt = at }
      return indicatorFindings(config, at: at, profile: profile)
    case (.refreshing, .indicatorHidden), (.holding, .indicatorHidden):
      state.indicatorHiddenAt = at
      state.hiddenBeforeLoad = state.loadCompletedAt == nil
      state.phase = .done
    case (.refreshing, .loadComplete(let ok, _)):
      state.loadCompletedAt = at
      state.loadSucceeded = ok
      state.phase = .holding
    // A hide before the load is premature, but the load's end is still part of the story.
    case (.done, .loadComplete(let ok, _)) where state.loadCompletedAt == nil:
      state.loadCompletedAt = at
      state.loadSucceeded = ok
    default:
      return nil
    }
    return []
  }

  /// A pull refresh that fired while the finger was still down. The refresh runs (its hold is
  /// judged as any other's); it is early unless the profile fires refreshes on reaching the
  /// threshold and the pull had reached it.
  private static func startDuringDrag(_ state: inout SessionState, at: Double, profile: Profile) -> [Violation] {
    let phase = state.phase
    start(&state, at: at, trigger: .pull)
    state.fingerStillDown = true
    if phase == .armed, profile.refreshOnThreshold { return [] }
    return [
      Violation(
        kind: .refreshBeforeRelease, at: at,
        expected: profile.refreshOnThreshold ? "refresh_start once armed" : "refresh_start after release",
        actual: "refresh_start while \(phase.rawValue)")
    ]
  }

  private static func start(_ state: inout SessionState, at: Double, trigger: RefreshTrigger) {
    state.phase = .refreshing
    state.trigger = trigger
    state.refreshStartedAt = at
  }

  /// An `indicator_shown` whose count, stagger or cycle differs from the profile's; numbers the
  /// client or the profile leaves out are not checked.
  private static func indicatorFindings(_ reported: IndicatorConfig?, at: Double, profile: Profile) -> [Violation] {
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
        kind: .indicatorConfig, at: at, expected: describe(expected), actual: differences.joined(separator: ", "))
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
