package import PullParityCore

/// A `sessions` row as plain columns (flags 0/1), keyed by column name when encoded: what
/// `pullparity derive` writes and `pullparity load` reads back. `session_ref` is left out: it is
/// a join key the loading database hands out, not a fact about the session.
package struct SessionRow: Codable, Equatable, Sendable {
  package var sessionID: String
  package var app: String
  package var profile: String
  package var profileVersion: Int
  package var platform: String
  package var appVersion: String?
  package var osVersion: String?
  package var device: String?
  package var screen: String?
  package var empty: Int
  package var outcome: String
  package var finalState: String
  package var trigger: String?
  package var timeToArmMs: Double?
  package var armDistance: Double?
  package var clientArmDistance: Double?
  package var releaseDistance: Double?
  package var loadMs: Double?
  package var visibleMs: Double?
  package var flash: Int?
  package var prematureHide: Int?
  package var lateHide: Int?
  package var holdCompliant: Int?
  package var labelViolations: Int?
  package var armMismatch: Int?
  package var loadOk: Int?
  package var maxSampleGapMs: Double?
  package var maxOffsetError: Double?
  package var violationCount: Int
  package var eventCount: Int
  package var startedAtMs: Double
  package var endedAtMs: Double
  // Schema 9 (contract v1.1). Optional when decoded, so a distributed run's derived tables
  // written before them still load.
  package var installID: String?
  package var gestureObserved: Int?
  package var stuckRefresh: Int?
  package var droppedRefresh: Int?
  package var repeatedRefresh: Int?
  package var nearMiss: Int?
  package var refreshStartedAtMs: Double?
  package var refreshEndedAtMs: Double?
  package var judgeAgainAtMs: Double?

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case app, profile
    case profileVersion = "profile_version"
    case platform
    case appVersion = "app_version"
    case osVersion = "os_version"
    case device, screen, empty, outcome
    case finalState = "final_state"
    case trigger
    case timeToArmMs = "time_to_arm_ms"
    case armDistance = "arm_distance"
    case clientArmDistance = "client_arm_distance"
    case releaseDistance = "release_distance"
    case loadMs = "load_ms"
    case visibleMs = "visible_ms"
    case flash
    case prematureHide = "premature_hide"
    case lateHide = "late_hide"
    case holdCompliant = "hold_compliant"
    case labelViolations = "label_violations"
    case armMismatch = "arm_mismatch"
    case loadOk = "load_ok"
    case maxSampleGapMs = "max_sample_gap_ms"
    case maxOffsetError = "max_offset_error"
    case violationCount = "violation_count"
    case eventCount = "event_count"
    case startedAtMs = "started_at_ms"
    case endedAtMs = "ended_at_ms"
    case installID = "install_id"
    case gestureObserved = "gesture_observed"
    case stuckRefresh = "stuck_refresh"
    case droppedRefresh = "dropped_refresh"
    case repeatedRefresh = "repeated_refresh"
    case nearMiss = "near_miss"
    case refreshStartedAtMs = "refresh_started_at_ms"
    case refreshEndedAtMs = "refresh_ended_at_ms"
    case judgeAgainAtMs = "judge_again_at_ms"
  }

  /// The one mapping from a derived session to its columns (ingest writes through it too).
  package init(_ session: DerivedSession) {
    let m = session.metrics
    sessionID = session.sessionID
    app = session.app
    profile = session.profileName
    profileVersion = session.profileVersion
    platform = session.platform
    appVersion = session.appVersion
    osVersion = session.osVersion
    device = session.device
    screen = session.screen
    empty = session.empty ? 1 : 0
    outcome = m.outcome.rawValue
    finalState = session.finalPhase.rawValue
    trigger = m.trigger?.rawValue
    timeToArmMs = m.timeToArmMs
    armDistance = m.armDistance
    clientArmDistance = m.clientArmDistance
    releaseDistance = m.releaseDistance
    loadMs = m.loadMs
    visibleMs = m.visibleMs
    flash = Self.flag(m.flash)
    prematureHide = Self.flag(m.prematureHide)
    lateHide = Self.flag(m.lateHide)
    holdCompliant = Self.flag(m.holdCompliant)
    labelViolations = m.labelViolations
    armMismatch = Self.flag(m.armMismatch)
    loadOk = Self.flag(m.loadSucceeded)
    maxSampleGapMs = m.maxSampleGapMs
    maxOffsetError = m.maxOffsetError
    violationCount = session.violations.count
    eventCount = session.eventCount
    startedAtMs = session.startedAt
    endedAtMs = session.endedAt
    installID = session.installID
    gestureObserved = Self.flag(m.gestureObserved)
    stuckRefresh = Self.flag(m.stuckRefresh)
    droppedRefresh = Self.flag(m.droppedRefresh)
    repeatedRefresh = Self.flag(m.repeatedRefresh)
    nearMiss = Self.flag(m.nearMiss)
    refreshStartedAtMs = session.refreshStartedAt
    refreshEndedAtMs = session.refreshEndedAt
    judgeAgainAtMs = session.judgeAgainAt
  }

  private static func flag(_ value: Bool?) -> Int? { value.map { $0 ? 1 : 0 } }
}
