/// A selected session with more events than any gesture has (`SessionSize.suspectEventCount`),
/// flagged in the report headers.
public struct SuspectSession: Equatable, Sendable, Encodable {
  public var sessionID: String
  public var events: Int

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case events
  }
}
