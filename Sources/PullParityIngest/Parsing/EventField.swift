/// The fields of the contract (§1–2) a parser extracts from a line. Anything else is an unknown
/// field: allowed, and kept in the raw line.
package enum EventField: Int, CaseIterable, Sendable {
  case eventID, sessionID, ts, platform, app, type
  case seq, profile, appVersion, osVersion, device, screen, empty
  case distance, offset, reason, text, state, trigger, indicator
  case progress, visible, key, ok, error, message, installID, gestureObserved
  /// Members of the `indicator` object.
  case indicatorKind, indicatorCount, indicatorStaggerMs, indicatorCycleMs

  /// The JSON key: for `indicator*` members, the key inside the `indicator` object.
  package var key: String {
    switch self {
    case .eventID: "event_id"
    case .sessionID: "session_id"
    case .ts: "ts"
    case .platform: "platform"
    case .app: "app"
    case .type: "type"
    case .seq: "seq"
    case .profile: "profile"
    case .appVersion: "app_version"
    case .osVersion: "os_version"
    case .device: "device"
    case .screen: "screen"
    case .empty: "empty"
    case .distance: "distance"
    case .offset: "offset"
    case .reason: "reason"
    case .text: "text"
    case .state: "state"
    case .trigger: "trigger"
    case .indicator: "indicator"
    case .progress: "progress"
    case .visible: "visible"
    case .key: "key"
    case .ok: "ok"
    case .error: "error"
    case .message: "message"
    case .installID: "install_id"
    case .gestureObserved: "gesture_observed"
    case .indicatorKind: "kind"
    case .indicatorCount: "count"
    case .indicatorStaggerMs: "stagger_ms"
    case .indicatorCycleMs: "cycle_ms"
    }
  }

  /// How a finding names the field.
  package var path: String {
    switch self {
    case .indicatorKind, .indicatorCount, .indicatorStaggerMs, .indicatorCycleMs: "indicator.\(key)"
    default: key
    }
  }

  static let topLevelByKey: [String: EventField] = Dictionary(
    uniqueKeysWithValues: allCases.filter { !$0.isIndicatorMember }.map { ($0.key, $0) })
  static let indicatorMemberByKey: [String: EventField] = Dictionary(
    uniqueKeysWithValues: allCases.filter(\.isIndicatorMember).map { ($0.key, $0) })

  package var isIndicatorMember: Bool {
    switch self {
    case .indicatorKind, .indicatorCount, .indicatorStaggerMs, .indicatorCycleMs: true
    default: false
    }
  }
}
