package import GRDB
package import PullParityCore

/// What the rules that look past one session read of the stored sessions (schema 9): how far
/// each app and platform's data has moved, the sessions waiting for it, and one install's
/// refreshes in order. Read through SQLite's C API (`RawStatement`): installs and screens are
/// keys, and GRDB would cut their text at a NUL.
package enum CrossSessionQueries {
  /// How far the data of session `s`'s app and platform has moved: its newest session end, the
  /// last entry of `sessions_by_app_platform_end` for them.
  private static let horizonOfS = """
    SELECT max(h.ended_at_ms) FROM sessions h WHERE h.app = s.app AND h.platform = s.platform
    """

  /// Sessions with a judgement still open that their app and platform's data has now moved past.
  package static func dueForJudgement(_ db: Database) throws -> [Int64] {
    try RawStatement(
      db,
      """
      SELECT s.session_ref FROM sessions s
      WHERE s.judge_again_at_ms IS NOT NULL AND s.judge_again_at_ms <= (\(horizonOfS))
      """
    ).rows("finding sessions the data has moved past") { $0.int64(0) }
  }

  /// The installs whose sessions were written since their repeated refreshes were last judged,
  /// and the list emptied: the caller judges them in the same transaction.
  package static func takeInstallsToJudge(_ db: Database) throws -> [String] {
    let installs = try RawStatement(db, "SELECT install_id FROM installs_to_judge ORDER BY install_id")
      .rows("reading the installs to judge") { $0.string(0) }
    try db.execute(sql: "DELETE FROM installs_to_judge")
    return installs
  }

  /// One refresh of an install as the repeated refresh rule reads it.
  package struct Refresh: Equatable, Sendable {
    package var ref: Int64
    package var screen: String?
    package var startedAt: Double
    package var endedAt: Double?
    package var repeated: Bool?
    package var profile: String
    /// v1.2: its session recorded a pull (`gesture_observed` 1): never a repeat.
    package var pulled: Bool
  }

  /// The install's refreshes, screen by screen, in the order they started (ties by session id,
  /// byte order: what a distributed run can order by too).
  package static func refreshes(ofInstall install: String, _ db: Database) throws -> [Refresh] {
    let statement = try RawStatement(
      db,
      """
      SELECT session_ref, screen, refresh_started_at_ms, refresh_ended_at_ms, repeated_refresh, profile,
        gesture_observed IS 1
      FROM sessions WHERE install_id = ?1 AND refresh_started_at_ms IS NOT NULL
      ORDER BY screen, refresh_started_at_ms, session_id
      """)
    statement.bind(1, install)
    return try statement.rows("reading an install's refreshes") { row in
      Refresh(
        ref: row.int64(0), screen: row.optionalString(1), startedAt: row.double(2), endedAt: row.optionalDouble(3),
        repeated: row.optionalFlag(4), profile: row.string(5), pulled: row.int64(6) != 0)
    }
  }

  /// What the stored session `ref` is judged with besides its events: its app and platform's
  /// horizon, and the start and end of the refresh before its own on the same install and screen.
  package static func context(of ref: Int64, _ db: Database) throws -> SessionContext {
    try ContextReader(db).context(of: ref)
  }

  /// `context(of:)` for many sessions, its two statements prepared once: preparing them for
  /// every session was 70 % of judging across sessions at the end of an ingest (`perf`).
  package final class ContextReader {
    private let horizon: RawStatement
    private let previous: RawStatement

    package init(_ db: Database) throws {
      horizon = try RawStatement(
        db,
        """
        SELECT (\(horizonOfS)) FROM sessions s WHERE s.session_ref = ?1
        """)
      previous = try RawStatement(
        db,
        """
        SELECT p.refresh_started_at_ms, p.refresh_ended_at_ms FROM sessions s JOIN sessions p
          ON p.install_id = s.install_id AND p.screen IS s.screen AND p.refresh_started_at_ms IS NOT NULL
          AND (p.refresh_started_at_ms < s.refresh_started_at_ms
            OR (p.refresh_started_at_ms = s.refresh_started_at_ms AND p.session_id < s.session_id))
        WHERE s.session_ref = ?1 AND s.install_id IS NOT NULL
        ORDER BY p.refresh_started_at_ms DESC, p.session_id DESC LIMIT 1
        """)
    }

    package func context(of ref: Int64) throws -> SessionContext {
      horizon.bind(1, ref)
      previous.bind(1, ref)
      let refresh = try previous.rows("reading the previous refresh") { ($0.double(0), $0.optionalDouble(1)) }.first
      return SessionContext(
        horizon: try horizon.rows("reading a session's horizon") { $0.optionalDouble(0) }.first ?? nil,
        previousRefreshStartedAt: refresh?.0, previousRefreshEndedAt: refresh?.1)
    }
  }
}
