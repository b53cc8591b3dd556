internal import GRDB

/// v1.2: the selected sessions of one app and platform whose judgement waits for the data (a
/// refresh still running or an armed release not yet followed at the end of what is stored):
/// pending, with the time the data must reach to decide them all.
package struct PendingCell: Equatable, Sendable, Encodable {
  package var app: String
  package var platform: String
  package var sessions: Int
  /// Epoch ms: the earliest and the latest time the data must reach.
  package var firstDecidedAtMs: Double
  package var lastDecidedAtMs: Double

  package init(app: String, platform: String, sessions: Int, firstDecidedAtMs: Double, lastDecidedAtMs: Double) {
    self.app = app
    self.platform = platform
    self.sessions = sessions
    self.firstDecidedAtMs = firstDecidedAtMs
    self.lastDecidedAtMs = lastDecidedAtMs
  }

  enum CodingKeys: String, CodingKey {
    case app, platform, sessions
    case firstDecidedAtMs = "first_decided_at_ms"
    case lastDecidedAtMs = "last_decided_at_ms"
  }
}

extension ReportQueries {
  /// The selected sessions with a judgement still open (`judge_again_at_ms`), by app and
  /// platform. A session's `judge_again_at_ms` is its earliest open judgement's time; the last
  /// is the latest of those, when every pending session will have been judged at the latest.
  package func pending(_ filter: SessionFilter) throws -> [PendingCell] {
    let (clause, values) = filter.sqlValues()
    let sql = """
      SELECT s.app, s.platform, count(*), min(s.judge_again_at_ms), max(s.judge_again_at_ms)
      FROM sessions s WHERE s.judge_again_at_ms IS NOT NULL AND \(clause)
      GROUP BY s.app, s.platform ORDER BY s.app, s.platform
      """
    return try database.read { db in
      try RawStatement(db, sql, values).rows("reading the pending judgements") {
        PendingCell(
          app: $0.string(0), platform: $0.string(1), sessions: Int($0.int64(2)), firstDecidedAtMs: $0.double(3),
          lastDecidedAtMs: $0.double(4))
      }
    }
  }
}
