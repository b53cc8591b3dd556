internal import GRDB
internal import PullParityCore

/// The kinds of every session's violations, by `session_ref`: what reports ask of each session
/// ("did it break this rule?") without keying anything by session id.
///
/// Both tables are read in session-id order, the violations by their primary key and the ids
/// from their unique index, and merged: two sequential scans, where a lookup per session with
/// violations was a third of the report's reading time on a large file.
enum SessionViolationKinds {
  static func read(_ db: Database) throws -> [Int64: ViolationKinds] {
    let sessions = try RawStatement(db, "SELECT session_id, session_ref FROM sessions ORDER BY session_id")
    let violations = try RawStatement(
      db, "SELECT session_id, \(SessionRecordColumns.kindBit("kind")) AS bit FROM violations ORDER BY session_id")
    defer {
      sessions.reset()
      violations.reset()
    }
    let context = "reading the kinds of the sessions' violations"
    var kinds: [Int64: ViolationKinds] = [:]
    var hasSession = try sessions.step(context)
    while try violations.step(context) {
      let id = violations.bytes(0)
      // Ids compare as SQLite's BINARY collation orders them: bytes, then length.
      while hasSession, Self.precedes(sessions.bytes(0), id) { hasSession = try sessions.step(context) }
      guard hasSession, Self.equal(sessions.bytes(0), id) else { continue }
      kinds[sessions.int64(1), default: []].insert(ViolationKinds(rawValue: Int(violations.int64(1))))
    }
    return kinds
  }

  private static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    a.lexicographicallyPrecedes(b)
  }

  private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    a.elementsEqual(b)
  }
}
