import Foundation
package import GRDB
package import PullParityCore

/// The writes of one ingest transaction: raw events with duplicate and
/// conflict detection, quarantined lines, and the sessions derived from them.
///
/// Create one inside `PullParityDatabase.write` and let it go before the closure returns.
package final class IngestTransaction {
  private let db: Database
  private let findByIDKey: RawStatement
  private let insertEvent: RawStatement
  private let insertGroup: RawStatement
  private let findGroup: RawStatement
  private let insertQuarantine: RawStatement
  private let findSession: RawStatement
  private let eventsOfSession: RawStatement
  private var nextSessionRef: Int64
  private let insertSpan: RawStatement
  private let findChunk: RawStatement
  private let claimChunk: RawStatement
  private let insertChunk: RawStatement
  private let deleteViolations: RawStatement
  private let insertViolation: RawStatement
  private let insertSession: RawStatement
  private let updateSession: RawStatement
  private var sourceIDs: [String: Int64] = [:]
  /// Where random event ids' and session ids' keys go: each refreshed at its first use in
  /// the transaction.
  private let keyEpochs: KeyEpochs
  private let sessionEpochs: KeyEpochs
  private var refreshedEpochs: [ObjectIdentifier] = []

  /// `keyEpochs`, `sessionEpochs`: the run's, so that each transaction reads only the filters
  /// of epochs closed since the previous one; nil, new ones.
  package init(_ db: Database, keyEpochs: KeyEpochs? = nil, sessionEpochs: KeyEpochs? = nil) throws {
    self.db = db
    self.keyEpochs = keyEpochs ?? KeyEpochs(.events)
    self.sessionEpochs = sessionEpochs ?? KeyEpochs(.sessions)
    findByIDKey = try RawStatement(db, IngestStatementSQL.findByIDKey)
    insertEvent = try RawStatement(db, IngestStatementSQL.insertEvent)
    insertGroup = try RawStatement(db, IngestStatementSQL.insertGroup)
    findGroup = try RawStatement(db, IngestStatementSQL.findGroup)
    insertQuarantine = try RawStatement(db, IngestStatementSQL.insertQuarantine)
    findSession = try RawStatement(db, IngestStatementSQL.findSession)
    eventsOfSession = try RawStatement(db, IngestStatementSQL.eventsOfSession)
    findChunk = try RawStatement(db, IngestStatementSQL.findChunk)
    claimChunk = try RawStatement(db, IngestStatementSQL.claimChunk)
    insertChunk = try RawStatement(db, IngestStatementSQL.insertChunk)
    insertSpan = try RawStatement(db, IngestStatementSQL.insertSpan)
    deleteViolations = try RawStatement(db, IngestStatementSQL.deleteViolations)
    insertViolation = try RawStatement(db, IngestStatementSQL.insertViolation)
    insertSession = try RawStatement(db, IngestStatementSQL.insertSession)
    updateSession = try RawStatement(db, IngestStatementSQL.updateSession)
    nextSessionRef = (try Int64.fetchOne(db, sql: "SELECT max(session_ref) FROM sessions") ?? 0) + 1
  }

  /// The id of a source name, adding it on first use.
  package func sourceID(named name: String) throws -> Int64 {
    if let id = sourceIDs[name] { return id }
    try db.execute(sql: "INSERT OR IGNORE INTO sources (name) VALUES (?)", arguments: [name])
    let id = try Int64.fetchOne(db, sql: "SELECT source_id FROM sources WHERE name = ?", arguments: [name])!
    sourceIDs[name] = id
    return id
  }

  /// Stores an event with its raw line unless its `event_id` is already stored.
  ///
  /// `idKey` is `EventKey.of` the id. `id_hash` (the key) is unique, so the insert is the
  /// duplicate check: a new event costs one index descent. Only when the key is taken is the
  /// stored row read, to tell a duplicate (same id, same bytes) from a conflict (same id, other
  /// bytes) from a key collision (other id: try the next key value). `lookFirst` reads before
  /// inserting, the cheaper order when most events are duplicates (a re-sent file). A random
  /// id is first looked up in the closed key epochs whose filters may hold it.
  package func store(_ event: EventFields, idKey: Int64, lookFirst: Bool = false) throws -> EventStoreOutcome {
    guard !EventKey.isTimeOrdered(event.eventID) else { return try store(event, from: idKey, lookFirst: lookFirst) }
    let outcome = try storeRandom(event, idKey: idKey, lookFirst: lookFirst)
    if outcome == .stored { try keyEpochs.stored(1, db) }
    return outcome
  }

  /// `store` for an id that is not a UUIDv7, leaving the open epoch's count to the caller.
  private func storeRandom(_ event: EventFields, idKey: Int64, lookFirst: Bool) throws -> EventStoreOutcome {
    let epochs = try refreshed(keyEpochs)
    if let earlier = try findInClosedEpochs(event, hash: idKey, epochs) { return earlier }
    return try store(event, from: epochs.openKey(idKey), lookFirst: lookFirst)
  }

  /// `store` without counting in the open epoch: a group counts its rows once, at its end.
  private func storeUncounted(_ event: EventFields, idKey: Int64, lookFirst: Bool = false) throws -> EventStoreOutcome {
    guard !EventKey.isTimeOrdered(event.eventID) else { return try store(event, from: idKey, lookFirst: lookFirst) }
    return try storeRandom(event, idKey: idKey, lookFirst: lookFirst)
  }

  /// Stores `event` at the first free key from `key` on, unless its id is on the way there.
  private func store(_ event: EventFields, from key: Int64, lookFirst: Bool) throws -> EventStoreOutcome {
    var slot = key
    var insertNext = !lookFirst
    while true {
      if insertNext, try insert(event, slot: slot) { return .stored }
      switch try storedEvent(at: slot, comparingWith: event) {
      case .none:
        // Free: insert here (after a failed insert this cannot happen twice).
        guard !insertNext else {
          throw StoreError(
            context: "storing event \(Self.text(event.eventID))", message: "insert ignored but no row holds its key")
        }
        insertNext = true
      case .some(let outcome?):
        return outcome
      case .some(nil):
        // Another id has this key: probe the next value.
        slot &+= 1
        insertNext = !lookFirst
      }
    }
  }

  /// `epochs`, refreshed once per transaction (another run may have written since the last).
  /// Asked once per random id: two identities to compare, nothing to hash.
  private func refreshed(_ epochs: KeyEpochs) throws -> KeyEpochs {
    if !refreshedEpochs.contains(ObjectIdentifier(epochs)) {
      try epochs.refresh(db)
      refreshedEpochs.append(ObjectIdentifier(epochs))
    }
    return epochs
  }

  /// What `event` is to a copy of its id stored in a closed key epoch, or nil when there is none.
  private func findInClosedEpochs(_ event: EventFields, hash: Int64, _ epochs: KeyEpochs) throws -> EventStoreOutcome? {
    for key in epochs.closedKeys(hash) {
      var slot = key
      while let found = try storedEvent(at: slot, comparingWith: event) {
        if let outcome = found { return outcome }
        slot &+= 1
      }
    }
    return nil
  }

  /// Events written by one statement: measured, eight rows per INSERT cut SQLite's per-row
  /// overhead by about a sixth on the ingest benchmark.
  package static let groupSize = 8

  /// Stores `groupSize` events whose id keys are all different, with one statement where it
  /// can: fresh events are inserted together, and only when some are not stored is each one
  /// looked at. Returns each event's outcome, in order, and the `event_pk` of the stored ones.
  /// (Where duplicates are expected, events go one by one, looking first: `store`.)
  package func storeGroup(
    _ event: (Int) -> EventFields, idKeys: [Int64]
  ) throws -> [(outcome: EventStoreOutcome, pk: Int64?)] {
    precondition(idKeys.count == Self.groupSize)
    let isRandom = (0..<Self.groupSize).map { !EventKey.isTimeOrdered(event($0).eventID) }
    let results = try storeGroupUncounted(event, idKeys: idKeys, isRandom: isRandom)
    // The open epoch closes after the group, if it filled: every key of the group was placed in it.
    let random = results.indices.count { results[$0].outcome == .stored && isRandom[$0] }
    if random > 0 { try keyEpochs.stored(random, db) }
    return results
  }

  private func storeGroupUncounted(
    _ event: (Int) -> EventFields, idKeys: [Int64], isRandom: [Bool]
  ) throws -> [(outcome: EventStoreOutcome, pk: Int64?)] {
    // A statement's parameters are numbered from 1; row r's are 13r+1 ... 13r+13.
    var slots = idKeys
    if isRandom.contains(true) {
      let epochs = try refreshed(keyEpochs)
      epochs.prefetch((0..<Self.groupSize).lazy.filter { isRandom[$0] }.map { idKeys[$0] })
      for row in 0..<Self.groupSize where isRandom[row] {
        // A copy in a closed epoch (a re-sent event): the group goes one by one, in order.
        if try findInClosedEpochs(event(row), hash: idKeys[row], epochs) != nil {
          return try idKeys.enumerated().map { row, key in
            let outcome = try storeUncounted(event(row), idKey: key)
            return (outcome, outcome == .stored ? lastEventPK : nil)
          }
        }
        slots[row] = epochs.openKey(idKeys[row])
      }
    }
    for row in 0..<Self.groupSize { bind(event(row), slot: slots[row], to: insertGroup, from: Int32(row * 13)) }
    let changes = try insertGroup.executeCountingChanges("storing \(Self.groupSize) events")
    let last = db.lastInsertedRowID
    if changes == Self.groupSize {
      return (0..<Self.groupSize).map { (.stored, last - Int64(Self.groupSize - 1 - $0)) }
    }
    // Some were stored, some not: rows this statement wrote have the newest keys.
    let firstNew = changes > 0 ? last - Int64(changes) + 1 : Int64.max
    return try resolveGroup(event, slots: slots, idKeys: idKeys, storedFrom: firstNew)
  }

  /// Finds what became of each event of a group, storing those that are not stored yet.
  /// `slots`: where each was inserted or is looked up first; `idKeys`: `EventKey.of` each id.
  private func resolveGroup(
    _ event: (Int) -> EventFields, slots: [Int64], idKeys: [Int64], storedFrom firstNew: Int64
  ) throws -> [(outcome: EventStoreOutcome, pk: Int64?)] {
    var results = [(outcome: EventStoreOutcome, pk: Int64?)?](repeating: nil, count: Self.groupSize)
    for (row, slot) in slots.enumerated() { findGroup.bind(Int32(row + 1), slot) }
    let (keyColumn, pkColumn, idColumn, rawColumn) = (
      findGroup.column("id_hash"), findGroup.column("event_pk"), findGroup.column("event_id"), findGroup.column("raw")
    )
    try findGroup.forEachRow("looking up \(Self.groupSize) events") { found in
      let key = found.int64(keyColumn)
      // Events whose slots coincide (their keys differ, but not in the bits an epoch keeps)
      // are left to the one-by-one path below, bar the first.
      guard let row = slots.firstIndex(of: key) else { return }
      let fields = event(row)
      guard Self.sameBytes(found.bytes(idColumn), fields.eventID) else { return }
      let pk = found.int64(pkColumn)
      if pk >= firstNew {
        results[row] = (.stored, pk)
      } else {
        results[row] = (Self.sameBytes(found.bytes(rawColumn), fields.raw) ? .duplicate : .conflict, nil)
      }
    }
    return try results.enumerated().map { row, result in
      if let result { return result }
      // Not stored, or its key is another id's: the one-by-one path inserts or probes on.
      let outcome = try storeUncounted(event(row), idKey: idKeys[row])
      return (outcome, outcome == .stored ? lastEventPK : nil)
    }
  }

  private func bind(_ event: EventFields, slot: Int64, to s: RawStatement, from base: Int32) {
    s.bindNoCopy(base + 1, bytes: event.eventID)
    s.bind(base + 2, slot)
    s.bindNoCopy(base + 3, bytes: event.sessionID)
    s.bind(base + 4, event.sessionRef)
    s.bind(base + 5, event.timestamp)
    s.bind(base + 6, event.seq)
    s.bindNoCopy(base + 7, bytes: event.platform)
    s.bindNoCopy(base + 8, bytes: event.app)
    s.bindNoCopy(base + 9, bytes: event.type)
    s.bind(base + 10, event.sourceID)
    s.bind(base + 11, event.line)
    s.bind(base + 12, event.byteOffset)
    s.bindNoCopy(base + 13, bytes: event.raw)
  }

  private func insert(_ event: EventFields, slot: Int64) throws -> Bool {
    bind(event, slot: slot, to: insertEvent, from: 0)
    return try insertEvent.executeCountingChanges("storing event \(Self.text(event.eventID))") == 1
  }

  /// `nil`: no row at `slot`. `.some(nil)`: a row of another id. Else duplicate or conflict.
  private func storedEvent(at slot: Int64, comparingWith event: EventFields) throws -> EventStoreOutcome?? {
    findByIDKey.bind(1, slot)
    var result: EventStoreOutcome?? = .none
    let (idColumn, rawColumn) = (findByIDKey.column("event_id"), findByIDKey.column("raw"))
    try findByIDKey.forEachRow("looking up event \(Self.text(event.eventID))") { row in
      guard Self.sameBytes(row.bytes(idColumn), event.eventID) else {
        result = .some(nil)
        return
      }
      result = .some(Self.sameBytes(row.bytes(rawColumn), event.raw) ? .duplicate : .conflict)
    }
    return result
  }

  static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

  /// Records a rejected line; returns false when it was recorded before. A quarantined line
  /// is identified by its bytes and its category (`UNIQUE (raw_hash, category)`): the same line
  /// read again, under another name for its file, at another offset or in another file is
  /// the row recorded first.
  @discardableResult
  package func quarantine(
    source: String, line: Int, byteOffset: Int, category: String, reason: String,
    raw: UnsafeRawBufferPointer, rawIsUTF8: Bool, eventID: String?, runID: Int64
  ) throws -> Bool {
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
    return try s.executeCountingChanges("quarantining \(source):\(line)") == 1
  }

  /// The ref of a session derived before (its events were stored by an earlier transaction), or nil.
  package func sessionRef(of sessionID: String) throws -> Int64? {
    let (key, randomHash) = try sessionKey(sessionID)
    for candidate in [key] + (randomHash.map(sessionEpochs.closedKeys) ?? []) {
      if let ref = try sessionRef(of: sessionID, key: candidate) { return ref }
    }
    return nil
  }

  /// Where session `sessionID` is stored when new: a UUIDv7 at its time key; any other id at
  /// its hash's key in the open session epoch, and then `randomHash` is that hash, whose
  /// earlier copy may be in a closed epoch.
  private func sessionKey(_ sessionID: String) throws -> (key: Int64, randomHash: Int64?) {
    let hash = EventKey.of(sessionID)
    guard !EventKey.isTimeOrdered(sessionID) else { return (hash, nil) }
    return (try refreshed(sessionEpochs).openKey(hash), hash)
  }

  private func sessionRef(of sessionID: String, key: Int64) throws -> Int64? {
    findSession.bind(1, key)
    findSession.bind(2, sessionID)
    var ref: Int64?
    let refColumn = findSession.column("session_ref")
    try findSession.forEachRow("looking up session \(sessionID)") { ref = $0.int64(refColumn) }
    return ref
  }

  /// A ref for a session seen for the first time: one more than any before.
  package func newSessionRef() -> Int64 {
    defer { nextSessionRef += 1 }
    return nextSessionRef
  }

  /// The `event_pk` of the last event stored.
  package var lastEventPK: Int64 { db.lastInsertedRowID }

  /// What a chunk with this fingerprint turned out to be, if one was written before.
  package func knownChunk(_ chunk: ChunkFingerprint) throws -> ChunkOutcome? {
    bind(chunk, to: findChunk)
    var outcome: ChunkOutcome?
    try findChunk.forEachRow("looking up a chunk of \(chunk.source)") { row in
      func count(_ name: String) -> Int { Int(row.int64(row.column(name))) }
      outcome = ChunkOutcome(
        events: count("events"), conflicts: count("conflicts"), rejected: count("rejected"), blank: count("blank"),
        resumable: count("resumable") == 1)
    }
    return outcome
  }

  /// Remembers a chunk written in this transaction by run `runID`.
  package func recordChunk(_ chunk: ChunkFingerprint, outcome: ChunkOutcome, runID: Int64) throws {
    bind(chunk, to: insertChunk)
    insertChunk.bind(7, outcome.events)
    insertChunk.bind(8, outcome.conflicts)
    insertChunk.bind(9, outcome.rejected)
    insertChunk.bind(10, outcome.blank)
    insertChunk.bind(11, runID)
    try insertChunk.execute("recording a chunk of \(chunk.source)")
  }

  /// Makes run `runID` the one that finished a resumable chunk: a later run reading it again
  /// counts duplicates, not a second resumption.
  package func claimChunk(_ chunk: ChunkFingerprint, runID: Int64) throws {
    bind(chunk, to: claimChunk)
    claimChunk.bind(7, runID)
    try claimChunk.execute("resuming a chunk of \(chunk.source)")
  }

  private func bind(_ chunk: ChunkFingerprint, to s: RawStatement) {
    s.bind(1, chunk.source)
    s.bind(2, chunk.firstLine)
    s.bind(3, chunk.lineCount)
    s.bind(4, chunk.byteCount)
    s.bind(5, chunk.contentHash)
    s.bind(6, chunk.rulesVersion)
  }

  /// Records that a session's events are the consecutive rows `first...last`.
  package func recordSpan(sessionRef: Int64, first: Int64, last: Int64) throws {
    insertSpan.bind(1, sessionRef)
    insertSpan.bind(2, first)
    insertSpan.bind(3, last)
    try insertSpan.execute("recording where session \(sessionRef)'s events are")
  }

  /// Every stored event of a session, one at a time: the raw line's bytes (valid during the
  /// call), its source and line. A huge session is then never held as text and as events at once.
  package func forEachStoredEvent(
    ofSession ref: Int64, _ body: (UnsafeRawBufferPointer, String, Int) throws -> Void
  ) throws {
    eventsOfSession.bind(1, ref)
    try StoredLineSQL.forEachLine(eventsOfSession, "reading events of session \(ref)", body)
  }

  /// Replaces the derived rows of a session. `isNew`: it has no rows yet, nothing to clear.
  package func save(_ session: DerivedSession, ref: Int64, isNew: Bool = false) throws {
    try save(SessionRow(session), violations: ViolationRow.rows(of: session), ref: ref, isNew: isNew)
  }

  /// The same from rows (`pullparity load`, from a distributed run's derived tables).
  package func save(_ row: SessionRow, violations: [ViolationRow], ref: Int64, isNew: Bool = false) throws {
    if !isNew {
      deleteViolations.bind(1, ref)
      try deleteViolations.execute("clearing violations of \(row.sessionID)")
    }
    try write(row, ref: ref, isNew: isNew)
    for violation in violations {
      let s = insertViolation
      s.bind(1, violation.sessionID)
      s.bind(2, violation.ordinal)
      s.bind(3, violation.kind)
      s.bind(4, violation.tsMs)
      s.bind(5, violation.expected)
      s.bind(6, violation.actual)
      s.bind(7, ref)
      try s.execute("saving violations of \(row.sessionID)")
    }
  }

  /// The session's row: updated when `isNew` is false and it is there, else inserted.
  private func write(_ row: SessionRow, ref: Int64, isNew: Bool) throws {
    let context = "saving session \(row.sessionID)"
    if !isNew {
      SessionRowSQL.bind(row, ref: ref, to: updateSession)
      if try updateSession.executeCountingChanges(context) == 1 { return }
    }
    SessionRowSQL.bind(row, ref: ref, to: insertSession)
    let (key, randomHash) = try sessionKey(row.sessionID)
    insertSession.bind(SessionRowSQL.keyParameter, key)
    guard try insertSession.executeCountingChanges(context) == 1 else {
      throw StoreError(
        context: context,
        message: "the row was not written: session_ref \(ref) or its session_id belongs to another session, "
          + "or a column is NULL", sql: IngestStatementSQL.insertSession)
    }
    if randomHash != nil { try sessionEpochs.stored(1, db) }
  }

  private static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == 0 }
    return memcmp(pa, pb, a.count) == 0
  }
}
