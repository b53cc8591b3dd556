/// A selected session with more events than any gesture has (`SessionSize.suspectEventCount`),
/// flagged in the report headers.
package struct SuspectSession: Equatable, Sendable, Encodable {
  package var sessionID: String
  package var events: Int

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case events
  }
}
