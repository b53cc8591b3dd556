/// What a refresh does to the data: the page cache before the fetch, and what the user sees when
/// the load fails.
enum ContentReducer {
  static func reduce(_ state: inout SessionState, _ payload: EventPayload, at: Double, profile: Profile) -> [Violation]?
  {
    switch (state.phase, payload) {
    case (.refreshing, .cacheInvalidated), (.holding, .cacheInvalidated):
      state.cacheInvalidated = true
      return []
    case (.refreshing, .fetchStart), (.holding, .fetchStart):
      guard let screen = state.screen, profile.cacheInvalidationScreens.contains(screen), !state.cacheInvalidated
      else { return [] }
      return [
        Violation(
          kind: .cacheOrder, at: at, expected: "cache_invalidated before fetch_start on \(screen)",
          actual: "fetch_start with the cache entry still valid")
      ]
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
      return nil
    }
  }
}
