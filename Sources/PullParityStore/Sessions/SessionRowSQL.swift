/// The `sessions` row: the one place its columns are listed for writing (`SessionRow` maps a
/// derived session to them).
enum SessionRowSQL {
  /// In parameter order: `?1` is `session_ref`, `?2` `session_id`, and so on.
  private static let columns = [
    "session_ref", "session_id", "app", "profile", "profile_version", "platform", "app_version", "os_version",
    "device", "screen", "empty", "outcome", "final_state", "\"trigger\"", "time_to_arm_ms", "arm_distance",
    "client_arm_distance", "release_distance", "load_ms", "visible_ms", "flash", "premature_hide", "late_hide",
    "hold_compliant", "label_violations", "arm_mismatch", "load_ok", "max_sample_gap_ms", "max_offset_error",
    "violation_count", "event_count", "started_at_ms", "ended_at_ms", "install_id", "gesture_observed",
    "stuck_refresh", "dropped_refresh", "repeated_refresh", "near_miss", "refresh_started_at_ms",
    "refresh_ended_at_ms", "judge_again_at_ms",
  ]

  private static func parameters(_ range: ClosedRange<Int>) -> String {
    range.map { "?\($0)" }.joined(separator: ", ")
  }

  // Both statements say OR IGNORE, and their caller counts the rows changed instead. SQLite
  // keeps a statement journal (a copy of every page the statement touches that the transaction
  // had already changed, in a temporary file) for a statement that may abort and may write more
  // than one row: REPLACE does both, and so does a plain INSERT or UPDATE here, whose NOT NULL
  // columns abort and whose stale-day triggers write another table. Measured on a day of 1M
  // events: REPLACE wrote 3.8 GB of statement journal, and saving sessions took 0.61 s instead
  // of 0.19 s. OR IGNORE cannot abort; an ignored row is no quieter, the caller throws.

  /// A session not stored yet; its `session_key` is the last parameter (it never changes once
  /// stored).
  static let insert = """
    INSERT OR IGNORE INTO sessions (\(columns.joined(separator: ", ")), session_key)
    VALUES (\(parameters(1...columns.count + 1)))
    """

  static let keyParameter = Int32(columns.count + 1)

  /// A stored session's row, found by its ref (`?1`).
  static let update = """
    UPDATE OR IGNORE sessions SET (\(columns.dropFirst().joined(separator: ", ")))
      = (\(parameters(2...columns.count)))
    WHERE session_ref = ?1
    """

  static func bind(_ row: SessionRow, ref: Int64, to s: RawStatement) {
    s.bind(1, ref)
    s.bind(2, row.sessionID)
    s.bind(3, row.app)
    s.bind(4, row.profile)
    s.bind(5, row.profileVersion)
    s.bind(6, row.platform)
    s.bind(7, row.appVersion)
    s.bind(8, row.osVersion)
    s.bind(9, row.device)
    s.bind(10, row.screen)
    s.bind(11, row.empty)
    s.bind(12, row.outcome)
    s.bind(13, row.finalState)
    s.bind(14, row.trigger)
    s.bind(15, row.timeToArmMs)
    s.bind(16, row.armDistance)
    s.bind(17, row.clientArmDistance)
    s.bind(18, row.releaseDistance)
    s.bind(19, row.loadMs)
    s.bind(20, row.visibleMs)
    s.bind(21, row.flash)
    s.bind(22, row.prematureHide)
    s.bind(23, row.lateHide)
    s.bind(24, row.holdCompliant)
    s.bind(25, row.labelViolations)
    s.bind(26, row.armMismatch)
    s.bind(27, row.loadOk)
    s.bind(28, row.maxSampleGapMs)
    s.bind(29, row.maxOffsetError)
    s.bind(30, row.violationCount)
    s.bind(31, row.eventCount)
    s.bind(32, row.startedAtMs)
    s.bind(33, row.endedAtMs)
    s.bind(34, row.installID)
    s.bind(35, row.gestureObserved)
    s.bind(36, row.stuckRefresh)
    s.bind(37, row.droppedRefresh)
    s.bind(38, row.repeatedRefresh)
    s.bind(39, row.nearMiss)
    s.bind(40, row.refreshStartedAtMs)
    s.bind(41, row.refreshEndedAtMs)
    s.bind(42, row.judgeAgainAtMs)
  }
}
