package import PullParityCore

/// A `violations` row, keyed by column name when encoded (`pullparity derive` and `load`).
package struct ViolationRow: Codable, Equatable, Sendable {
  package var sessionID: String
  package var ordinal: Int
  package var kind: String
  package var tsMs: Double
  package var expected: String?
  package var actual: String?

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case ordinal, kind
    case tsMs = "ts_ms"
    case expected, actual
  }

  /// The rows of a derived session's findings, numbered in the order they were found.
  package static func rows(of session: DerivedSession) -> [ViolationRow] {
    session.violations.enumerated().map { ordinal, violation in
      ViolationRow(
        sessionID: session.sessionID, ordinal: ordinal, kind: violation.kind.rawValue, tsMs: violation.at,
        expected: violation.expected, actual: violation.actual)
    }
  }
}
