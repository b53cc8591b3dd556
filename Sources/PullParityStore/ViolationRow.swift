public import PullParityCore

/// A `violations` row, keyed by column name when encoded (`pullparity derive` and `load`).
public struct ViolationRow: Codable, Equatable, Sendable {
  public var sessionID: String
  public var ordinal: Int
  public var kind: String
  public var tsMs: Double
  public var expected: String?
  public var actual: String?

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id", ordinal, kind, tsMs = "ts_ms", expected, actual
  }

  /// The rows of a derived session's findings, numbered in the order they were found.
  public static func rows(of session: DerivedSession) -> [ViolationRow] {
    session.violations.enumerated().map { ordinal, violation in
      ViolationRow(
        sessionID: session.sessionID, ordinal: ordinal, kind: violation.kind.rawValue, tsMs: violation.at,
        expected: violation.expected, actual: violation.actual)
    }
  }
}
