import Foundation
public import GRDB
public import PullParityCore

/// The writes of one ingest batch, inside one transaction: raw events with duplicate and
/// conflict detection, quarantined lines, and the sessions derived from them.
///
/// Create one inside `PullParityDatabase.write` and let it go before the closure returns.
public final class IngestTransaction {
  private let db: Database
  private let findByIDHash: RawStatement
  private let insertEvent: RawStatement
  private let insertQuarantine: RawStatement
  private let findSession: RawStatement
  private let eventsOfSession: RawStatement
  private let deleteViolations: RawStatement
  private let insertViolation: RawStatement
  private let upsertSession: RawStatement
  private var sourceIDs: [String: Int64] = [:]

  public init(_ db: Database) throws {
    self.db = db
    findByIDHash = try RawStatement(db, "SELECT event_id, raw FROM events WHERE id_hash = ?")
    insertEvent = try RawStatement(
      db,
      """
      INSERT INTO events (event_id, id_hash, session_id, session_hash, ts_ms, seq, platform, app,
                          type, source_id, line, byte_offset, raw)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertQuarantine = try RawStatement(
      db,
      """
      INSERT OR IGNORE INTO quarantine (source, line, byte_offset, category, reason, raw, event_id,
                                        run_id, raw_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    findSession = try RawStatement(db, "SELECT 1 FROM sessions WHERE session_id = ?")
    eventsOfSession = try RawStatement(
      db,
      """
      SELECT e.raw, s.name, e.line FROM events e JOIN sources s ON s.source_id = e.source_id
      WHERE e.session_hash = ? AND e.session_id = ?
      """)
    deleteViolations = try RawStatement(db, "DELETE FROM violations WHERE session_id = ?")
    insertViolation = try RawStatement(
      db, "INSERT INTO violations (session_id, ordinal, kind, ts_ms, expected, actual) VALUES (?, ?, ?, ?, ?, ?)")
    upsertSession = try RawStatement(db, SessionRowSQL.upsert)
  }

  /// The id of a source name, adding it on first use.
  public func sourceID(named name: String) throws -> Int64 {
    if let id = sourceIDs[name] { return id }
    try db.execute(sql: "INSERT OR IGNORE INTO sources (name) VALUES (?)", arguments: [name])
    let id = try Int64.fetchOne(db, sql: "SELECT source_id FROM sources WHERE name = ?", arguments: [name])!
    sourceIDs[name] = id
    return id
  }

  /// Stores `event` with its raw line unless its `event_id` is already stored.
  public func store(
    _ event: Event, raw: UnsafeRawBufferPointer, sourceID: Int64, line: Int, byteOffset: Int
  ) throws -> EventStoreOutcome {
    let idHash = StableHash.fnv1a64(event.eventID)
    findByIDHash.bind(1, idHash)
    var outcome = EventStoreOutcome.stored
    try findByIDHash.forEachRow("looking up event \(event.eventID)") { row in
      // The hash only narrows the search; the id itself decides.
      guard row.string(0) == event.eventID else { return }
      outcome = Self.sameBytes(row.bytes(1), raw) ? .duplicate : .conflict
    }
    guard outcome == .stored else { return outcome }

    let s = insertEvent
    s.bind(1, event.eventID)
    s.bind(2, idHash)
    s.bind(3, event.sessionID)
    s.bind(4, StableHash.fnv1a64(event.sessionID))
    s.bind(5, event.timestamp)
    s.bind(6, event.seq)
    s.bind(7, event.platform)
    s.bind(8, event.app)
    s.bind(9, event.type.rawValue)
    s.bind(10, sourceID)
    s.bind(11, line)
    s.bind(12, byteOffset)
    s.bind(13, bytes: raw)
    try s.execute("storing event \(event.eventID)")
    return .stored
  }

  /// Records a rejected line. The same line of the same source is recorded once, however
  /// often it is ingested.
  public func quarantine(
    source: String, line: Int, byteOffset: Int, category: String, reason: String,
    raw: UnsafeRawBufferPointer, rawIsUTF8: Bool, eventID: String?, runID: Int64
  ) throws {
    let s = insertQuarantine
    s.bind(1, source)
    s.bind(2, line)
    s.bind(3, byteOffset)
    s.bind(4, category)
    s.bind(5, reason)
    s.bind(6, bytes: raw, asBlob: !rawIsUTF8)
    s.bind(7, eventID)
    s.bind(8, runID)
    s.bind(9, StableHash.fnv1a64(raw))
    try s.execute("quarantining \(source):\(line)")
  }

  /// Whether a session has been derived before, i.e. has events stored by an earlier batch.
  public func sessionExists(_ sessionID: String) throws -> Bool {
    findSession.bind(1, sessionID)
    var found = false
    try findSession.forEachRow("looking up session \(sessionID)") { _ in found = true }
    return found
  }

  /// Every stored event of a session, this transaction's included.
  public func storedEvents(ofSession sessionID: String) throws -> [StoredEvent] {
    eventsOfSession.bind(1, StableHash.fnv1a64(sessionID))
    eventsOfSession.bind(2, sessionID)
    var events: [StoredEvent] = []
    try eventsOfSession.forEachRow("reading events of session \(sessionID)") { row in
      events.append(StoredEvent(raw: row.string(0), source: row.string(1), line: Int(row.int64(2))))
    }
    return events
  }

  /// Replaces the derived rows of a session.
  public func save(_ session: DerivedSession) throws {
    deleteViolations.bind(1, session.sessionID)
    try deleteViolations.execute("clearing violations of \(session.sessionID)")
    SessionRowSQL.bind(session, to: upsertSession)
    try upsertSession.execute("saving session \(session.sessionID)")
    for (ordinal, violation) in session.violations.enumerated() {
      let s = insertViolation
      s.bind(1, session.sessionID)
      s.bind(2, ordinal)
      s.bind(3, violation.kind.rawValue)
      s.bind(4, violation.at)
      s.bind(5, violation.expected)
      s.bind(6, violation.actual)
      try s.execute("saving violations of \(session.sessionID)")
    }
  }

  private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == 0 }
    return memcmp(pa, pb, a.count) == 0
  }
}
