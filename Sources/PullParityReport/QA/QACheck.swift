package import PullParityCore

/// The checklist items. The first six are the Padel parity spec's QA checklist; the others are
/// the same kind of check for the FFCI ticket's and the Phlock indicator's rules. Which apply to an app follows from its profile,
/// so a user's profile gets the checks its numbers call for.
package enum QACheck: String, CaseIterable, Sendable, Codable {
  case dragTracking = "drag_tracking"
  case armParity = "arm_parity"
  case noFlash = "no_flash"
  case noPrematureHide = "no_premature_hide"
  case labelCopy = "label_copy"
  case emptyState = "empty_state"
  case noLateHide = "no_late_hide"
  case indicatorConfig = "indicator_config"
  case revealOrder = "reveal_order"
  case cacheOrder = "cache_order"
  case contentKeptOnError = "content_kept_on_error"
  case errorShown = "error_shown"
  case noDoubleRefresh = "no_double_refresh"
  case tabReselect = "tab_reselect"
  // v1.1: the failures users file.
  case refreshEnds = "refresh_ends"
  case armedReleaseRefreshes = "armed_release_refreshes"
  case noEarlyRefresh = "no_early_refresh"
  // So that `qa` fails on every rule `report --check` fails on (issue #38).
  case holdCompliant = "hold_compliant"
  case noUnexpectedEvent = "no_unexpected_event"
  case noRepeatedRefresh = "no_repeated_refresh"

  /// The number of the item in the Padel spec's checklist, for the six that come from it.
  package var seedItem: Int? {
    switch self {
    case .dragTracking: 1
    case .armParity: 2
    case .noFlash: 3
    case .noPrematureHide: 4
    case .labelCopy: 5
    case .emptyState: 6
    default: nil
    }
  }

  package var title: String {
    switch self {
    case .dragTracking: "Indicator follows the drag"
    case .armParity: "Refresh arms near the reference platform's distance"
    case .noFlash: "Fast loads: indicator stays the minimum time (no flash)"
    case .noPrematureHide: "Slow loads: indicator stays until the load completes"
    case .labelCopy: "Labels match the exact copy"
    case .emptyState: "Empty-state screens show the same feedback"
    case .noLateHide: "Indicator leaves on time after the hold and load"
    case .indicatorConfig: "Indicator animation matches the profile"
    case .revealOrder: "Waveform bars reveal in order while pulling"
    case .cacheOrder: "Page cache invalidated before the fetch"
    case .contentKeptOnError: "Content kept when a refresh fails"
    case .errorShown: "An error is shown when a refresh fails"
    case .noDoubleRefresh: "No refresh starts while one runs"
    case .tabReselect: "Tab re-select refreshes hold like pulls"
    case .refreshEnds: "Every refresh ends (no stuck spinner)"
    case .armedReleaseRefreshes: "Every armed release refreshes"
    case .noEarlyRefresh: "No refresh starts before the finger lifts"
    case .holdCompliant: "Indicator holds as the profile says (no flash, early or late hide)"
    case .noUnexpectedEvent: "Only events the state machine allows"
    case .noRepeatedRefresh: "No refresh repeats right after the last one"
    }
  }

  /// The profile rule the item checks, for those that check one: the rule decides whether the
  /// item applies to a profile, and the item is judged as `report` judges the rule (its rate
  /// against its budget), so that `qa` and `report --check` fail on the same rules.
  package var rule: ProfileRule? {
    switch self {
    case .armParity: .armMismatch
    case .noFlash: .flash
    case .noPrematureHide: .prematureHide
    case .noLateHide: .lateHide
    case .labelCopy: .labelText
    case .indicatorConfig: .indicatorConfig
    case .revealOrder: .revealOrder
    case .cacheOrder: .cacheOrder
    case .contentKeptOnError: .contentClearedOnError
    case .errorShown: .errorNotShown
    case .noDoubleRefresh: .doubleRefresh
    case .refreshEnds: .stuckRefresh
    case .armedReleaseRefreshes: .droppedRefresh
    case .noEarlyRefresh: .refreshBeforeRelease
    case .holdCompliant: .holdCompliance
    case .noUnexpectedEvent: .unexpectedEvent
    case .noRepeatedRefresh: .repeatedRefresh
    case .dragTracking, .emptyState, .tabReselect: nil
    }
  }

  /// The checklist's own count (not a rule's) the item is judged on, for the items that have one.
  var tally: QATally? {
    switch self {
    case .dragTracking: .dragTracking
    case .noFlash: .fastLoads
    case .noPrematureHide: .prematureHide
    case .noLateHide: .lateHide
    case .emptyState: .emptyState
    case .tabReselect: .tabReselect
    default: nil
    }
  }

  /// The rules of `report`'s rule table that no item checks: what `qa` says it does not judge.
  /// Empty: every rule has its item (`QAAgreementTests`).
  package static var rulesNotChecked: [ProfileRule] {
    ProfileRule.allCases.filter { rule in !allCases.contains { $0.rule == rule } }
  }

  /// The items that check something no rule of `report` does: `qa` may fail on them alone.
  package static var beyondTheRules: [QACheck] { allCases.filter { $0.rule == nil } }

  func applies(to profile: Profile) -> Bool {
    rule?.applies(to: profile) ?? true
  }
}
