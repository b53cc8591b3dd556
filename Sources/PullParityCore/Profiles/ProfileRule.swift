/// The rules of a profile that reports judge every platform against on its own (besides comparing
/// platforms with each other). A rule has one name everywhere: its raw value is the key of the
/// profile's `budgets`, the name reports, `qa`, `compare` and dashboards print, and, for a rule
/// that is one violation kind, that kind's name in `violations.kind`.
public enum ProfileRule: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
  case holdCompliance = "hold_compliance"
  case flash
  case prematureHide = "premature_hide"
  case lateHide = "late_hide"
  case labelText = "label_text"
  case armMismatch = "arm_mismatch"
  case revealOrder = "reveal_order"
  case indicatorConfig = "indicator_config"
  case cacheOrder = "cache_order"
  case errorNotShown = "error_not_shown"
  case contentClearedOnError = "content_cleared_on_error"
  case doubleRefresh = "double_refresh"
  // v1.1: the failures users file.
  case stuckRefresh = "stuck_refresh"
  case droppedRefresh = "dropped_refresh"
  case refreshBeforeRelease = "refresh_before_release"
  case unexpectedEvent = "unexpected_event"
  case repeatedRefresh = "repeated_refresh"

  /// Whether the profile asks for this rule at all: a rule about label copy means nothing for an
  /// app that shows no labels.
  public func applies(to profile: Profile) -> Bool {
    switch self {
    case .flash: profile.minHoldMs > 0
    case .labelText: profile.labels != nil
    case .armMismatch: profile.armThreshold != nil
    case .revealOrder: profile.reveal != nil
    case .indicatorConfig:
      profile.indicator.map { $0.count != nil || $0.staggerMs != nil || $0.cycleMs != nil } ?? false
    case .cacheOrder: !profile.cacheInvalidationScreens.isEmpty
    case .errorNotShown: profile.errorMustBeShown
    case .holdCompliance, .prematureHide, .lateHide, .contentClearedOnError, .doubleRefresh, .stuckRefresh,
      .droppedRefresh, .refreshBeforeRelease, .unexpectedEvent, .repeatedRefresh:
      true
    }
  }

  /// The violation a session breaking this rule has; `nil` for hold compliance, which is the
  /// absence of flash, premature and late hides together.
  /// A switch, not `ViolationKind(rawValue: rawValue)`: it is read for every rule of every
  /// session a report counts, and the string switch was 9 % of rebuilding a day's digests.
  public var violationKind: ViolationKind? {
    switch self {
    case .holdCompliance: nil
    case .flash: .flash
    case .prematureHide: .prematureHide
    case .lateHide: .lateHide
    case .labelText: .labelText
    case .armMismatch: .armMismatch
    case .revealOrder: .revealOrder
    case .indicatorConfig: .indicatorConfig
    case .cacheOrder: .cacheOrder
    case .errorNotShown: .errorNotShown
    case .contentClearedOnError: .contentClearedOnError
    case .doubleRefresh: .doubleRefresh
    case .stuckRefresh: .stuckRefresh
    case .droppedRefresh: .droppedRefresh
    case .refreshBeforeRelease: .refreshBeforeRelease
    case .unexpectedEvent: .unexpectedEvent
    case .repeatedRefresh: .repeatedRefresh
    }
  }

  /// The rule's one name, as every report prints it.
  public var title: String { rawValue }
}
