import GRDB

/// Reads about ingest runs and what they quarantined.
public struct RunQueries {
  public let database: PullParityDatabase

  public init(_ database: PullParityDatabase) {
    self.database = database
  }

  public struct QuarantinedLine: Sendable {
    public var source: String
    public var line: Int
    public var category: String
    public var reason: String
  }

  /// Lines first quarantined by `runID`, in input order.
  public func quarantined(runID: Int64, limit: Int) throws -> [QuarantinedLine] {
    try database.read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT source, line, category, reason FROM quarantine WHERE run_id = ? ORDER BY source, line LIMIT ?",
        arguments: [runID, limit]
      ).map { QuarantinedLine(source: $0[0], line: $0[1], category: $0[2], reason: $0[3]) }
    }
  }
}
