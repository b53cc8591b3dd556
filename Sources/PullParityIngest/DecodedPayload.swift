package import PullParityCore

/// The fields an event's type carries (contract §2), as `pullparity decode` writes them: only
/// the ones the type has, keyed as in the contract.
package struct DecodedPayload: Codable, Equatable, Sendable {
  package var distance: Double?
  package var offset: Double?
  package var reason: String?
  package var text: String?
  package var state: String?
  package var trigger: String?
  /// Present (false) only for a refresh whose gesture the recorder did not see.
  package var gestureObserved: Bool?
  package var indicator: Indicator?
  package var progress: Double?
  package var visible: Int?
  package var key: String?
  package var ok: Bool?
  package var error: String?
  package var message: String?

  enum CodingKeys: String, CodingKey {
    case distance, offset, reason, text, state, trigger, indicator, progress, visible, key, ok, error, message
    case gestureObserved = "gesture_observed"
  }

  package struct Indicator: Codable, Equatable, Sendable {
    package var kind: String?
    package var count: Int?
    package var staggerMs: Double?
    package var cycleMs: Double?

    enum CodingKeys: String, CodingKey {
      case kind, count
      case staggerMs = "stagger_ms"
      case cycleMs = "cycle_ms"
    }
  }

  package init(_ payload: EventPayload) {
    switch payload {
    case .pullStart, .indicatorHidden, .scrollToTop, .fetchStart, .contentCleared: break
    case .pullMove(let distance, let offset):
      self.distance = distance
      self.offset = offset
    case .armed(let distance), .disarmed(let distance), .release(let distance): self.distance = distance
    case .cancel(let reason): self.reason = reason
    case .label(let text, let state):
      self.text = text
      self.state = state.rawValue
    case .refreshStart(let trigger, let observed):
      self.trigger = trigger.rawValue
      gestureObserved = observed ? nil : false
    case .indicatorShown(let config):
      indicator = config.map {
        Indicator(kind: $0.kind?.rawValue, count: $0.count, staggerMs: $0.staggerMs, cycleMs: $0.cycleMs)
      }
    case .reveal(let progress, let visible):
      self.progress = progress
      self.visible = visible
    case .cacheInvalidated(let key): self.key = key
    case .loadComplete(let ok, let error):
      self.ok = ok
      self.error = error
    case .errorShown(let message): self.message = message
    }
  }
}
