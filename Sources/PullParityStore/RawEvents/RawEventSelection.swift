/// Which stored events `pullparity export` reads; every criterion given must hold.
package struct RawEventSelection: Sendable {
  /// Session ids, byte for byte.
  package var sessionIDs: [String] = []
  /// Events of sessions of this app / platform (`sessions.app`, `sessions.platform`).
  package var app: String?
  package var platform: String?
  /// Event time in epoch ms: `since` inclusive, `until` exclusive.
  package var sinceMs: Double?
  package var untilMs: Double?
  /// Events stored by this ingest or load run.
  package var runID: Int64?

  package init(
    sessionIDs: [String] = [], app: String? = nil, platform: String? = nil, sinceMs: Double? = nil,
    untilMs: Double? = nil, runID: Int64? = nil
  ) {
    self.sessionIDs = sessionIDs
    self.app = app
    self.platform = platform
    self.sinceMs = sinceMs
    self.untilMs = untilMs
    self.runID = runID
  }

  func includes(_ line: RawLine, sessions: Set<Int64>?) -> Bool {
    if let sinceMs, line.timestamp < sinceMs { return false }
    if let untilMs, line.timestamp >= untilMs { return false }
    if let sessions, !sessions.contains(line.sessionRef) { return false }
    return true
  }
}
