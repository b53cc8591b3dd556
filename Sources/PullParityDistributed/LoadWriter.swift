internal import GRDB
internal import PullParityCore
internal import PullParityIngest
internal import PullParityStore

/// The writes of `pullparity load` inside its transaction: events with their session refs,
/// quarantined lines, then sessions with their violations, by ingest's rules for what the
/// database holds already: an event whose id is stored is a duplicate (same bytes) or a conflict
/// (other bytes, quarantined), a bad line already quarantined is not added again, and a session
/// that had events stored before is derived again from all its stored events, as ingest derives
/// it. A session new to the database keeps the run's row when every one of its events was stored.
struct LoadWriter {
  /// The rows read from the run's tables, checked against its summary.
  struct Loaded {
    var events = 0
    var quarantined = 0
    var sessions = 0
  }

  /// A session of the run: its ref, whether it was in the database before this load, and how
  /// many of its event rows the run has and how many of them were stored.
  private struct Session {
    var ref: Int64
    var existed: Bool
    var rows = 0
    var stored = 0
    /// `--leave-events`: the part files (indices) that hold its rows.
    var files: ClosedRange<Int>?
  }

  /// `load --leave-events`: the run whose events stay in its directory, and each part file's
  /// index in its list by path.
  struct Leaving {
    var run: LeftEventRun
    var fileIndex: [String: Int]
    var db: Database
  }

  let tx: IngestTransaction
  let runID: Int64
  let profiles: ProfileCatalog
  private(set) var loaded = Loaded()
  /// What this load changed, in ingest's terms (`ingest_runs`).
  private(set) var counts = RunCounts()
  /// By session id, refs in first-seen order, as ingest hands them out.
  private var sessions: [ByteIdentity: Session] = [:]
  /// The ids (hashed) this load stored: a run keeps one version of each event, so a second row
  /// of one of them is a damaged run, not a duplicate.
  private var storedIDs: StoredIDs
  private var lastWasDuplicate = false
  private var decoder = LineDecoder()
  private let leaving: Leaving?

  /// `expectedEvents`: the run's events by its summary, so that the list of stored ids is
  /// allocated once (bounded: the summary is only checked against the rows at the end).
  /// `leaving`: set for `--leave-events`.
  init(tx: IngestTransaction, runID: Int64, profiles: ProfileCatalog, expectedEvents: Int, leaving: Leaving? = nil) {
    self.tx = tx
    self.runID = runID
    self.profiles = profiles
    self.leaving = leaving
    storedIDs = StoredIDs(expected: leaving == nil ? min(max(expectedEvents, 0), 1 << 26) : 0)
  }

  /// Stores a batch's rows in order. Its sessions and sources are resolved once each, in the
  /// order they first appear, as ingest hands out session refs.
  mutating func store(_ batch: EventBatch) throws {
    if let leaving { return try note(batch, leaving) }
    var batchSessions = try batch.sessions.texts.map { try session(of: $0) }
    let sourceIDs = try batch.sources.texts.map { try tx.sourceID(named: $0) }
    try batch.arena.withUnsafeBytes { arena in
      for row in batch.rows {
        do {
          let event = row.event
          try store(
            row, of: batch, arena, session: &batchSessions[event.sessionIndex], sourceID: sourceIDs[event.sourceIndex])
        } catch let problem as TableRowProblem {
          throw batch.location(of: row).error(problem.message)
        }
      }
    }
    for (id, session) in zip(batch.sessions.texts, batchSessions) { sessions[ByteIdentity(id)] = session }
  }

  /// `--leave-events`: the batch's rows are counted and their sessions given refs in ingest's
  /// order, with the part file that holds them, and a `label` event noted as storing it would
  /// note it; nothing else of them is kept. A session the file holds already is another run's,
  /// whose events are in another directory: refused, as its events could not be read together.
  private mutating func note(_ batch: EventBatch, _ leaving: Leaving) throws {
    let file = leaving.fileIndex[batch.file] ?? 0
    var batchSessions = try batch.sessions.texts.map { try session(of: $0) }
    try batch.arena.withUnsafeBytes { arena in
      for row in batch.rows {
        let index = row.event.sessionIndex
        if batchSessions[index].existed {
          throw batch.location(of: row).error(
            try overlap(batch.sessions.texts[index], ref: batchSessions[index].ref, leaving))
        }
        batchSessions[index].rows += 1
        batchSessions[index].stored += 1
        let files = batchSessions[index].files
        batchSessions[index].files = min(files?.lowerBound ?? file, file)...max(files?.upperBound ?? file, file)
        try tx.noteLabel(type: row.event.type.bytes(in: arena), session: batchSessions[index].ref)
        loaded.events += 1
      }
    }
    for (id, session) in zip(batch.sessions.texts, batchSessions) { sessions[ByteIdentity(id)] = session }
  }

  /// Why a session of a run whose events are left cannot go into a file that holds it.
  private func overlap(_ sessionID: String, ref: Int64, _ leaving: Leaving) throws -> String {
    let other = try LeftEvents.session(ref, leaving.db).map { "the run loaded from \($0.run.directory)" }
    return "session \"\(sessionID)\" is in \(other ?? "the file already") too, and a session's events must be in "
      + "one run directory: write the days into one dataset (pullparity_spark.py --append) and load it, or load "
      + "the runs without --leave-events"
  }

  private func session(of id: String) throws -> Session {
    if let known = sessions[ByteIdentity(id)] { return known }
    if let ref = try tx.sessionRef(of: id) { return Session(ref: ref, existed: true) }
    return Session(ref: tx.newSessionRef(), existed: false)
  }

  private mutating func store(
    _ row: EventBatch.Row, of batch: EventBatch, _ arena: UnsafeRawBufferPointer, session: inout Session,
    sourceID: Int64
  ) throws {
    session.rows += 1
    let fields = row.event.fields(arena, sessionRef: session.ref, sourceID: sourceID)
    let outcome = try tx.store(fields, idKey: row.event.idKey, lookFirst: lastWasDuplicate)
    loaded.events += 1
    lastWasDuplicate = outcome == .duplicate
    switch outcome {
    case .stored:
      counts.eventsStored += 1
      session.stored += 1
      storedIDs.insert(row.idHash)
    case .duplicate, .conflict:
      guard !storedIDs.contains(row.idHash) else {
        let id = String(decoding: fields.eventID, as: UTF8.self)
        throw TableRowProblem(
          message: "event_id \"\(id)\" is in the run's events twice; a run keeps one version of each event")
      }
      if outcome == .duplicate {
        counts.duplicates += 1
      } else {
        try quarantineConflict(batch.decoded(row))
      }
    }
  }

  /// An event whose id the database holds with other bytes: quarantined as ingest does.
  private mutating func quarantineConflict(_ row: EventTableRow) throws {
    let added = try Array(row.raw.utf8).withUnsafeBytes { raw in
      try tx.quarantine(
        source: row.source, line: row.line, byteOffset: row.byteOffset, category: RejectionReason.conflict.rawValue,
        reason: IngestTransaction.conflictReason(row.eventID),
        raw: raw, rawIsUTF8: true, eventID: row.eventID, runID: runID)
    }
    if added { counts.conflicts += 1 } else { counts.alreadyQuarantined += 1 }
  }

  mutating func quarantine(_ row: QuarantineTableRow) throws {
    let (bytes, isUTF8) = row.rawBytes()
    let added = try bytes.withUnsafeBytes { raw in
      try tx.quarantine(
        source: row.source, line: row.line, byteOffset: row.byteOffset, category: row.category, reason: row.reason,
        raw: raw, rawIsUTF8: isUTF8, eventID: row.eventID, runID: runID)
    }
    loaded.quarantined += 1
    // The same bad bytes are one row (their identity is the bytes and the category), as in ingest.
    if !added {
      counts.alreadyQuarantined += 1
    } else if row.category == RejectionReason.conflict.rawValue {
      counts.conflicts += 1
    } else {
      counts.quarantined += 1
    }
  }

  /// Sessions with their violations; every session must have events. Each session some of
  /// whose events this load stored is written: the run's row when the session is new and all
  /// its events were stored, else derived from its stored events (ingest's derivation).
  mutating func saveSessions(_ rows: LoadedSessions) throws {
    var violations = rows.violations
    var deriveAgain: [Int64] = []
    for (row, location) in rows.sessions {
      guard let session = sessions[ByteIdentity(row.sessionID)] else {
        throw location.error("session \"\(row.sessionID)\" has no events")
      }
      loaded.sessions += 1
      let found = (violations.removeValue(forKey: ByteIdentity(row.sessionID))?.rows ?? []).sorted {
        $0.ordinal < $1.ordinal
      }
      guard session.stored > 0 else { continue }
      counts.sessionsDerived += 1
      if let leaving, let files = session.files {
        try tx.save(row, violations: found, ref: session.ref, isNew: true)
        try LeftEvents.recordSession(session.ref, runID: leaving.run.runID, files: files, leaving.db)
      } else if !session.existed, session.stored == session.rows {
        try tx.save(row, violations: found, ref: session.ref, isNew: true)
      } else {
        deriveAgain.append(session.ref)
      }
    }
    if let orphan = violations.keys.sorted().first, let first = violations[orphan]?.first {
      throw first.error("violations of session \"\(orphan)\", which has no row")
    }
    let existed = Set(sessions.values.lazy.filter(\.existed).map(\.ref))
    for ref in deriveAgain { try derive(ref, isNew: !existed.contains(ref)) }
  }

  /// Derives a session from all its stored events and saves it, as ingest does; a session
  /// `retain` took raw events of keeps the row it has.
  private mutating func derive(_ ref: Int64, isNew: Bool) throws {
    guard try tx.hasAllRawEvents(ofSession: ref) else { return }
    let events: [RecordedEvent]
    let tx = tx
    do {
      events = try decoder.sessionEvents(sessionID: "\(ref)") { visit in
        try tx.forEachStoredEvent(ofSession: ref, visit)
      }
    } catch is StoredSessionError {
      // Stored lines that no longer decode leave nothing to derive: the stored row stays.
      return
    }
    try tx.save(SessionDeriver.derive(events, profiles: profiles), ref: ref, isNew: isNew)
  }
}

/// The hashed ids of the events a load stored. A list until an event of the run turns out to
/// be stored already, and a set from then on: most loads never ask, and an append costs less
/// than a hash-table insert, which showed in the profile of loading a million events.
struct StoredIDs {
  private var list: [Int64] = []
  private var set: Set<Int64>?

  init(expected: Int) {
    list.reserveCapacity(expected)
  }

  mutating func insert(_ id: Int64) {
    if set != nil {
      set?.insert(id)
    } else {
      list.append(id)
    }
  }

  mutating func contains(_ id: Int64) -> Bool {
    if set == nil {
      set = Set(list)
      list = []
    }
    return set?.contains(id) ?? false
  }
}

/// A run's `sessions` and `violations` tables, read (on the reading thread) while the events
/// are stored.
struct LoadedSessions {
  var sessions: [(SessionRow, PipeLocation)] = []
  var violations: [ByteIdentity: (rows: [ViolationRow], first: PipeLocation)] = [:]

  static func read(directory: String) throws -> LoadedSessions {
    var read = LoadedSessions()
    try TableFiles(directory: directory, table: "violations").forEachRow(ViolationRow.self) { row, location in
      read.violations[ByteIdentity(row.sessionID), default: ([], location)].rows.append(row)
    }
    try TableFiles(directory: directory, table: "sessions").forEachRow(SessionRow.self) { row, location in
      read.sessions.append((row, location))
    }
    return read
  }
}
