internal import PullParityCore

/// The metrics parity compares (docs/events.md §6, plus the client's own arming point and the
/// arm-mismatch rate, which is where a platform arming on the wrong distance shows).
package enum ParityMetric: String, CaseIterable, Sendable, Codable {
  case armDistance = "arm_distance"
  case clientArmDistance = "client_arm_distance"
  case timeToArmMs = "time_to_arm_ms"
  case visibleMs = "visible_ms"
  case flashRate = "flash_rate"
  case prematureHideRate = "premature_hide_rate"
  case holdComplianceRate = "hold_compliance_rate"
  case labelViolationRate = "label_violation_rate"
  case armMismatchRate = "arm_mismatch_rate"
  /// Cancelled pulls that reached 80 % of the threshold: the share of users who pulled almost
  /// far enough (is the threshold too high on this platform?). A figure, not a violation.
  case nearMissRate = "near_miss_rate"
  /// v1.2: sessions whose screen was left during the refresh, over the sessions with a refresh.
  /// A figure compared like the others, not a violation: users leave, but a platform whose
  /// refreshes lose far more of them than another's is slower or stuck more often.
  case abandonedDuringRefreshRate = "abandoned_during_refresh_rate"

  package var isRate: Bool {
    switch self {
    case .armDistance, .clientArmDistance, .timeToArmMs, .visibleMs: false
    default: true
    }
  }

  package var title: String {
    switch self {
    case .armDistance: "arm distance"
    case .clientArmDistance: "client arm distance"
    case .timeToArmMs: "time to arm"
    case .visibleMs: "visible time"
    case .flashRate: "flash"
    case .prematureHideRate: "premature hide"
    case .holdComplianceRate: "hold compliant"
    case .labelViolationRate: "label violations"
    case .armMismatchRate: "arm mismatch"
    case .nearMissRate: "near-miss cancels"
    case .abandonedDuringRefreshRate: "abandoned during refresh"
    }
  }

  /// The profile's distance unit (pt, px, dp), ms, or % for a share of sessions.
  package func unit(distance: String) -> String {
    switch self {
    case .armDistance, .clientArmDistance: distance
    case .timeToArmMs, .visibleMs: "ms"
    default: "%"
    }
  }

  /// The per-session value a distribution is built from.
  func value(_ m: SessionMetrics) -> Double? {
    switch self {
    case .armDistance: m.armDistance
    case .clientArmDistance: m.clientArmDistance
    case .timeToArmMs: m.timeToArmMs
    case .visibleMs: m.visibleMs
    default: nil
    }
  }

  /// The per-session flag a rate counts.
  func flag(_ m: SessionMetrics) -> Bool? {
    switch self {
    case .flashRate: m.flash
    case .prematureHideRate: m.prematureHide
    case .holdComplianceRate: m.holdCompliant
    case .labelViolationRate: m.labelViolations.map { $0 > 0 }
    case .armMismatchRate: m.armMismatch
    case .nearMissRate: m.nearMiss
    case .abandonedDuringRefreshRate: m.abandonedDuringRefresh
    default: nil
    }
  }
}
