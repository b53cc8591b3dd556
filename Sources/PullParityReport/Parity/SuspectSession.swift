internal import PullParityCore

/// A selected session with more events than any gesture has (`SessionSize.suspectEventCount`),
/// flagged in the report headers.
package struct SuspectSession: Equatable, Sendable, Encodable {
  package var sessionID: String
  package var events: Int

  /// Inserts `suspect` into `list`, which is kept biggest first, then in id order (bytes, as
  /// SQLite orders ids), so that any order of insertion gives the same list.
  static func insert(_ suspect: SuspectSession, into list: inout [SuspectSession]) {
    func precedes(_ a: SuspectSession, _ b: SuspectSession) -> Bool {
      (a.events, ByteIdentity(b.sessionID)) > (b.events, ByteIdentity(a.sessionID))
    }
    list.insert(suspect, at: list.firstIndex { precedes(suspect, $0) } ?? list.endIndex)
  }

  enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case events
  }
}
