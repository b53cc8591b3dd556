import Foundation
package import GRDB
package import PullParityCore

/// The writes of one ingest transaction: raw events with duplicate and
/// conflict detection, quarantined lines, and the sessions derived from them.
///
/// Create one inside `PullParityDatabase.write` and let it go before the closure returns.
package final class IngestTransaction {
  private let db: Database
  private let insertKey: RawStatement
  /// `insertKey` for `keysPerInsert` rows.
  private let insertKeys: RawStatement
  private let findKey: RawStatement
  private let insertLabelled: RawStatement
  /// Sessions noted in `labelled_sessions` by this transaction.
  private var labelled: Set<Int64> = []
  private let blocks: RawBlockWriter
  private let reader: RawBlockReader
  private let storedLines: StoredLines
  private let insertQuarantine: RawStatement
  private let quarantineBlocks: QuarantineBlockWriter
  private let findSession: RawStatement
  private var nextSessionRef: Int64
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
  /// Keys of new random ids whose lines are in the blocks already, to be inserted in key order
  /// (`insertPendingKeys`): one after another they descend to neighbouring leaves of the index,
  /// which stay in the CPU's caches, where inserted as read each lands on a page of its own.
  private var pendingKeys: [PendingKey] = []

  /// Keys pending at most: about a reader's chunk, so that inserting them never holds the
  /// writer long enough for the reader to wait (a transaction's 200,000 at its end held it
  /// about 0.2 s each time, with the reader's queue full), while a batch still lands about
  /// 70 keys on each leaf of a full epoch's region (about 340 pages of 32 KiB).
  private static let pendingKeyLimit = 25_000

  /// Pending keys inserted by one statement: each statement run opens a cursor on the index,
  /// resets and checks its bindings. One key a statement, storing a million random ids'
  /// events took 4.2 s (median of ten runs) against 3.5 s at 100 (docs/performance.md,
  /// "Random ids").
  static let keysPerInsert = 100

  private struct PendingKey {
    let key: Int64
    let block: Int64
    let slot: Int
  }

  /// `keyEpochs`, `sessionEpochs`: the run's, so that each transaction reads only the filters
  /// of epochs closed since the previous one; nil, new ones.
  /// `runID`: the run whose lines this transaction stores (`event_blocks.run_id`).
  package init(
    _ db: Database, keyEpochs: KeyEpochs? = nil, sessionEpochs: KeyEpochs? = nil, runID: Int64? = nil
  ) throws {
    self.db = db
    self.keyEpochs = keyEpochs ?? KeyEpochs(.events)
    self.sessionEpochs = sessionEpochs ?? KeyEpochs(.sessions)
    insertKey = try RawStatement(db, IngestStatementSQL.insertKey)
    insertKeys = try RawStatement(db, IngestStatementSQL.insertKeys(Self.keysPerInsert))
    findKey = try RawStatement(db, IngestStatementSQL.findKey)
    insertLabelled = try RawStatement(db, IngestStatementSQL.insertLabelled)
    blocks = try RawBlockWriter(db, runID: runID)
    reader = try RawBlockReader(db)
    storedLines = try StoredLines(db)
    insertQuarantine = try RawStatement(db, IngestStatementSQL.insertQuarantine)
    quarantineBlocks = try QuarantineBlockWriter(db, runID: runID)
    findSession = try RawStatement(db, IngestStatementSQL.findSession)
    findChunk = try RawStatement(db, IngestStatementSQL.findChunk)
    claimChunk = try RawStatement(db, IngestStatementSQL.claimChunk)
    insertChunk = try RawStatement(db, IngestStatementSQL.insertChunk)
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
  /// `idKey` is `EventKey.idKey(of:)` the id. `event_keys.id_hash` is unique, so the insert of the key
  /// is the duplicate check: a new event costs one index descent, and its line goes into the
  /// block being filled. Only when the key is taken is the stored line read, to tell a
  /// duplicate (same id, same bytes) from a conflict (same id, other bytes) from a key
  /// collision (other id: try the next key value). `lookFirst` reads before inserting, the
  /// cheaper order when most events are duplicates (a re-sent file). A random id is first
  /// looked up in the closed key epochs whose filters may hold it.
  ///
  /// A random id whose key the open epoch certainly does not hold is new: its line goes into
  /// the block at once, its key waits for `insertPendingKeys`.
  package func store(_ event: EventFields, idKey: IDKey, lookFirst: Bool = false) throws -> EventStoreOutcome {
    guard !idKey.isTimeOrdered else { return try store(event, from: idKey.value, lookFirst: lookFirst).outcome }
    let epochs = try refreshed(keyEpochs)
    let candidates = epochs.candidates(idKey.value)
    if let earlier = try find(event, atClosedKeys: candidates.closed) { return earlier }
    let key = epochs.openKey(idKey.value)
    var outcome = EventStoreOutcome.stored
    if candidates.open {
      // It, or another id at its key, may be stored or pending: look in the index.
      try insertPendingKeys()
      let stored = try store(event, from: key, lookFirst: lookFirst)
      outcome = stored.outcome
      if outcome == .stored { epochs.noteStoredInOpenEpoch(stored.key) }
    } else {
      let (block, slot) = try append(event)
      pendingKeys.append(PendingKey(key: key, block: block, slot: slot))
      epochs.noteStoredInOpenEpoch(key)
      if pendingKeys.count >= Self.pendingKeyLimit { try insertPendingKeys() }
    }
    if outcome == .stored {
      if epochs.closes(afterStoring: 1) { try insertPendingKeys() }
      try epochs.stored(1, db)
    }
    return outcome
  }

  /// Stores `event` at the first free key from `key` on, unless its id is on the way there;
  /// the key it was stored at, or looked up last.
  private func store(
    _ event: EventFields, from key: Int64, lookFirst: Bool
  ) throws -> (outcome: EventStoreOutcome, key: Int64) {
    var slot = key
    var insertNext = !lookFirst
    while true {
      if insertNext, try insert(event, key: slot) { return (.stored, slot) }
      switch try storedEvent(at: slot, comparingWith: event) {
      case .none:
        // Free: insert here (after a failed insert this cannot happen twice).
        guard !insertNext else {
          throw StoreError(
            context: "storing event \(Self.text(event.eventID))", message: "insert ignored but no row holds its key")
        }
        insertNext = true
      case .some(let outcome?):
        return (outcome, slot)
      case .some(nil):
        // Another id has this key: probe the next value.
        slot &+= 1
        insertNext = !lookFirst
      }
    }
  }

  /// Inserts the pending keys, in key order, `keysPerInsert` to a statement. Each is certainly
  /// free (the open epoch's filter did not hold it, and this transaction holds the write lock):
  /// one that is not is an error.
  private func insertPendingKeys() throws {
    guard !pendingKeys.isEmpty else { return }
    pendingKeys.sort { $0.key < $1.key }
    let whole = pendingKeys.count - pendingKeys.count % Self.keysPerInsert
    for start in stride(from: 0, to: whole, by: Self.keysPerInsert) {
      let batch = pendingKeys[start..<start + Self.keysPerInsert]
      for (offset, pending) in batch.enumerated() {
        let first = Int32(3 * offset)
        insertKeys.bind(first + 1, pending.key)
        insertKeys.bind(first + 2, pending.block)
        insertKeys.bind(first + 3, pending.slot)
      }
      let stored = try insertKeys.executeCountingChanges("storing the keys of \(batch.count) raw events")
      guard stored == batch.count else { throw try takenKey(among: batch) }
    }
    for pending in pendingKeys[whole...] {
      insertKey.bind(1, pending.key)
      insertKey.bind(2, pending.block)
      insertKey.bind(3, pending.slot)
      guard try insertKey.executeCountingChanges("storing the key of raw event \(pending.block):\(pending.slot)") == 1
      else { throw takenKeyError(pending) }
    }
    pendingKeys.removeAll(keepingCapacity: true)
  }

  /// The error for a batch of pending keys of which fewer were stored than it holds: names the
  /// first whose row is another event's.
  private func takenKey(among batch: ArraySlice<PendingKey>) throws -> StoreError {
    let (blockColumn, slotColumn) = (findKey.column("block_id"), findKey.column("slot"))
    for pending in batch {
      findKey.bind(1, pending.key)
      let place = try findKey.rows("looking up key \(pending.key)") {
        ($0.int64(blockColumn), Int($0.int64(slotColumn)))
      }
      if place.first.map({ $0 != (pending.block, pending.slot) }) ?? true { return takenKeyError(pending) }
    }
    return StoreError(
      context: "storing the keys of \(batch.count) raw events", message: "fewer rows were stored than keys",
      sql: IngestStatementSQL.insertKeys(Self.keysPerInsert))
  }

  private func takenKeyError(_ pending: PendingKey) -> StoreError {
    StoreError(
      context: "storing the key of raw event \(pending.block):\(pending.slot)",
      message: "key \(pending.key) is taken, though the open key epoch's filter did not hold it",
      sql: IngestStatementSQL.insertKey)
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

  /// What `event` is to a copy of its id stored in a closed key epoch, or nil when there is
  /// none. `keys`: where the epochs that may hold it would have put it first.
  private func find(_ event: EventFields, atClosedKeys keys: [Int64]) throws -> EventStoreOutcome? {
    for key in keys {
      var slot = key
      while let found = try storedEvent(at: slot, comparingWith: event) {
        if let outcome = found { return outcome }
        slot &+= 1
      }
    }
    return nil
  }

  /// Claims `key` for `event` and appends its line to the block being filled; false when the
  /// key is taken.
  private func insert(_ event: EventFields, key: Int64) throws -> Bool {
    let (block, slot) = blocks.nextPlace
    insertKey.bind(1, key)
    insertKey.bind(2, block)
    insertKey.bind(3, slot)
    guard try insertKey.executeCountingChanges("storing event \(Self.text(event.eventID))") == 1 else { return false }
    _ = try append(event)
    return true
  }

  /// Appends the line of a new event to the block being filled; its place there.
  private func append(_ event: EventFields) throws -> (block: Int64, slot: Int) {
    let place = blocks.nextPlace
    let line = RawLine(
      sessionRef: event.sessionRef, sourceID: event.sourceID, line: event.line, byteOffset: event.byteOffset,
      timestamp: event.timestamp)
    try blocks.append(line, eventID: event.eventID, raw: event.raw)
    try noteLabel(type: event.type, session: event.sessionRef)
    return place
  }

  /// Notes in `labelled_sessions` that session `ref` logged a label when `type` is `label`
  /// (reports read it instead of the events): for every stored event, and for an event
  /// `load --leave-events` leaves in its run directory.
  package func noteLabel(type: UnsafeRawBufferPointer, session ref: Int64) throws {
    guard Self.labelType.withUnsafeBytes({ Self.sameBytes(type, $0) }), labelled.insert(ref).inserted else { return }
    insertLabelled.bind(1, ref)
    try insertLabelled.execute("noting that session \(ref) logged a label")
  }

  private static let labelType = Array("label".utf8)

  /// `nil`: no row at `key`. `.some(nil)`: a row of another id. Else duplicate or conflict.
  /// An event whose block `retain` dropped is a duplicate: its id was stored, its bytes are gone.
  private func storedEvent(at key: Int64, comparingWith event: EventFields) throws -> EventStoreOutcome?? {
    findKey.bind(1, key)
    var place: (block: Int64, slot: Int)?
    let (blockColumn, slotColumn) = (findKey.column("block_id"), findKey.column("slot"))
    try findKey.forEachRow("looking up event \(Self.text(event.eventID))") { row in
      place = (row.int64(blockColumn), Int(row.int64(slotColumn)))
    }
    guard let place else { return .none }
    let compare = { (storedID: UnsafeRawBufferPointer, storedRaw: UnsafeRawBufferPointer) -> EventStoreOutcome? in
      guard Self.sameBytes(storedID, event.eventID) else { return nil }
      return Self.sameBytes(storedRaw, event.raw) ? .duplicate : .conflict
    }
    if place.block == blocks.blockID { return .some(blocks.builder.withLine(at: place.slot, compare)) }
    // The block may be the one being compressed: written first, else it would read as dropped.
    try blocks.settle()
    guard let block = try reader.block(place.block) else { return .some(.duplicate) }
    return .some(block.withLine(at: place.slot, compare))
  }

  static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }

  /// Records a rejected line; returns false when it was recorded before. A quarantined line
  /// is identified by its bytes and its category (`UNIQUE (raw_hash, category)`): the same line
  /// read again, under another name for its file, at another offset or in another file is
  /// the row recorded first. The line goes into the transaction's quarantine block; a conflict's
  /// reason, which says its event id, is not stored again (the `quarantine` view says it).
  @discardableResult
  package func quarantine(
    source: String, line: Int, byteOffset: Int, category: String, reason: String,
    raw: UnsafeRawBufferPointer, rawIsUTF8: Bool, eventID: String?, runID: Int64
  ) throws -> Bool {
    let s = insertQuarantine
    let place = quarantineBlocks.nextPlace
    s.bind(1, try sourceID(named: source))
    s.bind(2, line)
    s.bind(3, byteOffset)
    s.bind(4, category)
    s.bind(5, eventID.map(Self.conflictReason) == reason ? nil : reason)
    s.bind(6, eventID)
    s.bind(7, runID)
    s.bind(8, StableHash.fnv1a64(raw))
    s.bind(9, place.block)
    s.bind(10, place.slot)
    guard try s.executeCountingChanges("quarantining \(source):\(line)") == 1 else { return false }
    try quarantineBlocks.append(raw, isBlob: !rawIsUTF8, runID: runID)
    return true
  }

  /// What a conflict's quarantine row says (the view `quarantine` says it again from the id).
  package static func conflictReason(_ eventID: String) -> String {
    "event_id \"\(eventID)\" is already stored with other content; the stored version is kept"
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

  /// Whether every raw event of session `ref` is stored (`retain` dropped none of them, and
  /// `load --leave-events` left none in a run directory).
  package func hasAllRawEvents(ofSession ref: Int64) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT NOT EXISTS (SELECT 1 FROM sessions_without_raw WHERE session_ref = ?1)
          AND NOT EXISTS (SELECT 1 FROM left_event_sessions WHERE session_ref = ?1)
        """, arguments: [ref]) ?? false
  }

  /// Writes the pending keys and the blocks being filled, of events and of quarantined lines.
  /// Call before the transaction commits: lines appended after the last block was written are
  /// otherwise lost with their keys or rows, and pending keys with their lines.
  package func finishBlocks() throws {
    try insertPendingKeys()
    try blocks.flush()
    try quarantineBlocks.flush()
  }

  /// Every stored event of a session, one at a time: the raw line's bytes (valid during the
  /// call), its source and line. A huge session is then never held as text and as events at once.
  package func forEachStoredEvent(
    ofSession ref: Int64, _ body: (UnsafeRawBufferPointer, String, Int) throws -> Void
  ) throws {
    // Its newest lines may be in the block being filled.
    try blocks.flush()
    try storedLines.forEachLine(ofSession: ref) { line, _, raw in try body(raw, line.sourceName, line.line) }
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
