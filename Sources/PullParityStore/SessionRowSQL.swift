import PullParityCore

/// The `sessions` row of a derived session: the one place its columns are listed for writing.
enum SessionRowSQL {
  static let upsert = """
    INSERT OR REPLACE INTO sessions (
      session_ref, session_id, app, profile, profile_version, platform, app_version, os_version, device, screen,
      empty, outcome, final_state, "trigger", time_to_arm_ms, arm_distance, client_arm_distance,
      release_distance, load_ms, visible_ms, flash, premature_hide, late_hide, hold_compliant,
      label_violations, arm_mismatch, load_ok, max_sample_gap_ms, max_offset_error, violation_count, event_count,
      started_at_ms, ended_at_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  static func bind(_ session: DerivedSession, ref: Int64, to s: RawStatement) {
    let m = session.metrics
    s.bind(1, ref)
    s.bind(2, session.sessionID)
    s.bind(3, session.app)
    s.bind(4, session.profileName)
    s.bind(5, session.profileVersion)
    s.bind(6, session.platform)
    s.bind(7, session.appVersion)
    s.bind(8, session.osVersion)
    s.bind(9, session.device)
    s.bind(10, session.screen)
    s.bind(11, session.empty ? 1 : 0)
    s.bind(12, m.outcome.rawValue)
    s.bind(13, session.finalPhase.rawValue)
    s.bind(14, m.trigger?.rawValue)
    s.bind(15, m.timeToArmMs)
    s.bind(16, m.armDistance)
    s.bind(17, m.clientArmDistance)
    s.bind(18, m.releaseDistance)
    s.bind(19, m.loadMs)
    s.bind(20, m.visibleMs)
    s.bind(21, m.flash)
    s.bind(22, m.prematureHide)
    s.bind(23, m.lateHide)
    s.bind(24, m.holdCompliant)
    s.bind(25, m.labelViolations)
    s.bind(26, m.armMismatch)
    s.bind(27, m.loadSucceeded)
    s.bind(28, m.maxSampleGapMs)
    s.bind(29, m.maxOffsetError)
    s.bind(30, session.violations.count)
    s.bind(31, session.eventCount)
    s.bind(32, session.startedAt)
    s.bind(33, session.endedAt)
  }
}
