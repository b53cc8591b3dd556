internal import PullParityCore

/// The `sessions` columns a report reads, found by name once and then read by position straight
/// from SQLite: on a few hundred thousand sessions, a dictionary lookup or a GRDB value per cell
/// cost more than the scan itself.
struct SessionRecordColumns {
  static let selectList = """
    s.session_ref, s.session_id, s.app, s.profile, s.profile_version, s.platform, s.app_version, s.screen,
    s.empty, s.started_at_ms, s.outcome, s."trigger", s.time_to_arm_ms, s.arm_distance,
    s.client_arm_distance, s.release_distance, s.load_ms, s.visible_ms, s.flash,
    s.premature_hide, s.late_hide, s.hold_compliant, \(labelViolations), s.arm_mismatch,
    s.load_ok, s.max_sample_gap_ms, s.max_offset_error, s.event_count, s.gesture_observed, s.stuck_refresh,
    s.dropped_refresh, s.repeated_refresh, s.near_miss,
    CASE WHEN s.refresh_started_at_ms IS NOT NULL THEN s.outcome = 'abandoned' END AS abandoned_during_refresh
    """

  /// `label_violations` as reports read it: NULL, nothing judged, for a session that logged no
  /// label. The stored count is 0 then (the contract's "0 when none"), but a client that sends
  /// no labels has shown no copy to check, and counting it as right copy would pass a label
  /// check on a platform that logs none. Only sessions with no wrong label look for one.
  static let labelViolations = """
    CASE WHEN s.label_violations IS NULL OR s.label_violations > 0 OR EXISTS (
      SELECT 1 FROM labelled_sessions l WHERE l.session_ref = s.session_ref) THEN s.label_violations END
    AS label_violations
    """

  /// The SQL for the bit of `ViolationKinds` a stored kind name stands for; a kind this build
  /// does not know comes out as 0, no bit, which `SessionViolationKinds` refuses.
  static func kindBit(_ column: String) -> String {
    let cases = ViolationKind.allCases.map { "WHEN '\($0.rawValue)' THEN \(ViolationKinds($0).rawValue)" }
    return "CASE \(column) \(cases.joined(separator: " ")) ELSE 0 END"
  }

  private let sessionID, app, profile, profileVersion, platform, appVersion, screen, empty, startedAt: Int32
  private let outcome, trigger, timeToArm, armDistance, clientArmDistance, releaseDistance, loadMs: Int32
  private let visibleMs, flash, prematureHide, lateHide, holdCompliant, labelViolations, armMismatch: Int32
  private let loadOk, maxSampleGap, maxOffsetError, eventCount, sessionRef: Int32
  private let gestureObserved, stuckRefresh, droppedRefresh, repeatedRefresh, nearMiss: Int32
  private let abandonedDuringRefresh: Int32

  init(_ s: RawStatement) {
    (sessionID, app, profile) = (s.column("session_id"), s.column("app"), s.column("profile"))
    (profileVersion, platform) = (s.column("profile_version"), s.column("platform"))
    (appVersion, screen, empty) = (s.column("app_version"), s.column("screen"), s.column("empty"))
    (startedAt, outcome, trigger) =
      (s.column("started_at_ms"), s.column("outcome"), s.column("trigger"))
    (timeToArm, armDistance) = (s.column("time_to_arm_ms"), s.column("arm_distance"))
    (clientArmDistance, releaseDistance) = (s.column("client_arm_distance"), s.column("release_distance"))
    (loadMs, visibleMs, flash) = (s.column("load_ms"), s.column("visible_ms"), s.column("flash"))
    (prematureHide, lateHide) = (s.column("premature_hide"), s.column("late_hide"))
    (holdCompliant, labelViolations) = (s.column("hold_compliant"), s.column("label_violations"))
    (armMismatch, loadOk) = (s.column("arm_mismatch"), s.column("load_ok"))
    (maxSampleGap, maxOffsetError) = (s.column("max_sample_gap_ms"), s.column("max_offset_error"))
    (eventCount, sessionRef) = (s.column("event_count"), s.column("session_ref"))
    (gestureObserved, stuckRefresh) = (s.column("gesture_observed"), s.column("stuck_refresh"))
    (droppedRefresh, repeatedRefresh) = (s.column("dropped_refresh"), s.column("repeated_refresh"))
    nearMiss = s.column("near_miss")
    abandonedDuringRefresh = s.column("abandoned_during_refresh")
  }

  /// The current row; rows come in `session_ref` order, as `kinds` is walked. An outcome or
  /// trigger this build does not know is an error (`StoredEnumValue`).
  func record(_ s: RawStatement, kinds: inout SessionViolationKinds) throws(StoreError) -> SessionRecord {
    var refreshTrigger: RefreshTrigger?
    if let text = s.optionalString(trigger) {
      refreshTrigger = try StoredEnumValue.decode(text, table: "sessions", column: "trigger")
    }
    let metrics = SessionMetrics(
      outcome: try StoredEnumValue.decode(s.string(outcome), table: "sessions", column: "outcome"),
      trigger: refreshTrigger,
      timeToArmMs: s.optionalDouble(timeToArm), armDistance: s.optionalDouble(armDistance),
      clientArmDistance: s.optionalDouble(clientArmDistance), releaseDistance: s.optionalDouble(releaseDistance),
      loadMs: s.optionalDouble(loadMs), visibleMs: s.optionalDouble(visibleMs), flash: s.optionalFlag(flash),
      prematureHide: s.optionalFlag(prematureHide), lateHide: s.optionalFlag(lateHide),
      holdCompliant: s.optionalFlag(holdCompliant), labelViolations: s.optionalInt(labelViolations),
      armMismatch: s.optionalFlag(armMismatch), loadSucceeded: s.optionalFlag(loadOk),
      maxSampleGapMs: s.optionalDouble(maxSampleGap), maxOffsetError: s.optionalDouble(maxOffsetError),
      gestureObserved: s.optionalFlag(gestureObserved), stuckRefresh: s.optionalFlag(stuckRefresh),
      droppedRefresh: s.optionalFlag(droppedRefresh), repeatedRefresh: s.optionalFlag(repeatedRefresh),
      nearMiss: s.optionalFlag(nearMiss), abandonedDuringRefresh: s.optionalFlag(abandonedDuringRefresh))
    return SessionRecord(
      sessionID: s.string(sessionID), app: s.string(app), profile: s.string(profile),
      profileVersion: Int(s.int64(profileVersion)), platform: s.string(platform),
      appVersion: s.optionalString(appVersion), screen: s.optionalString(screen), empty: s.int64(empty) != 0,
      startedAtMs: s.optionalDouble(startedAt) ?? 0, metrics: metrics, eventCount: Int(s.int64(eventCount)),
      violationKinds: kinds.kinds(of: s.int64(sessionRef)))
  }
}
