/// What happened, with the fields each event type carries (docs/events.md §2).
public enum EventPayload: Equatable, Sendable {
  case pullStart
  /// `offset` is the indicator offset the client drew, when it says.
  case pullMove(distance: Double, offset: Double?)
  case armed(distance: Double)
  case disarmed(distance: Double)
  case release(distance: Double)
  case cancel(reason: String?)
  case label(text: String, state: LabelState)
  /// `gestureObserved` is false when the recorder only heard the app's `onRefresh` (a library
  /// that exposes no gesture): a pull refresh that may then start from idle.
  case refreshStart(trigger: RefreshTrigger, gestureObserved: Bool = true)
  case indicatorShown(IndicatorConfig?)
  case indicatorHidden
  /// Waveform bars shown while pulling: `visible` bars at `progress` (0–1).
  case reveal(progress: Double, visible: Int)
  case scrollToTop
  case cacheInvalidated(key: String)
  case fetchStart
  case loadComplete(ok: Bool, error: String?)
  case errorShown(message: String?)
  case contentCleared
  /// v1.2: the screen went away; `reason` is `navigation`, `background`, `closed` or another
  /// token the client sent, kept as it is.
  case screenLeft(reason: String?)

  public var type: EventType {
    switch self {
    case .pullStart: .pullStart
    case .pullMove: .pullMove
    case .armed: .armed
    case .disarmed: .disarmed
    case .release: .release
    case .cancel: .cancel
    case .label: .label
    case .refreshStart: .refreshStart
    case .indicatorShown: .indicatorShown
    case .indicatorHidden: .indicatorHidden
    case .reveal: .reveal
    case .scrollToTop: .scrollToTop
    case .cacheInvalidated: .cacheInvalidated
    case .fetchStart: .fetchStart
    case .loadComplete: .loadComplete
    case .errorShown: .errorShown
    case .contentCleared: .contentCleared
    case .screenLeft: .screenLeft
    }
  }
}
