import PullParityCore
public import PullParityStore

/// Writes batches inside the ingest's current transaction: events (skipping duplicates,
/// quarantining conflicts), rejected lines, and a fresh derivation of every session touched.
///
/// A session seen for the first time was already derived from the batch's own events on the
/// reading thread; only sessions that had stored events before are read back and derived
/// here, so a clean ingest never reads what it just wrote.
struct BatchCommitter {
  let profiles: ProfileCatalog
  let runID: Int64
  let sourceNames: [String]
  /// Re-parses stored raw lines of sessions that continue across batches.
  var storedLineDecoder: LineDecoder

  mutating func write(
    _ batch: IngestBatch, into tx: IngestTransaction, times: inout IngestStageTimes
  ) throws -> RunCounts {
    var clock = ContinuousClock.now
    var counts = RunCounts()
    counts.linesRead = batch.linesRead
    counts.blankLines = batch.blankLines

    // Sessions seen before keep their ref; new ones get the next (refs only ever grow, so the
    // events' session index is appended to, not inserted into at random).
    var refs: [Int64] = []
    var existed: [Bool] = []
    refs.reserveCapacity(batch.sessions.count)
    for session in batch.sessions {
      let existing = try tx.sessionRef(of: session.sessionID)
      refs.append(existing ?? tx.newSessionRef())
      existed.append(existing != nil)
    }
    var sourceIDs: [Int64] = []
    for name in sourceNames { sourceIDs.append(try tx.sourceID(named: name)) }

    var stored = [Bool](repeating: false, count: batch.rows.count)
    var lastWasDuplicate = false
    try batch.arena.withUnsafeBytes { arena in
      func store(_ index: Int) throws -> Int64? {
        let row = batch.rows[index]
        let fields = EventFields(
          eventID: row.eventID.bytes(in: arena), sessionID: row.sessionID.bytes(in: arena),
          platform: row.platform.bytes(in: arena), app: row.app.bytes(in: arena), type: row.type.bytes(in: arena),
          raw: row.raw.bytes(in: arena), timestamp: row.timestamp, seq: row.seq,
          sessionRef: refs[row.sessionIndex], sourceID: sourceIDs[row.sourceIndex], line: row.line,
          byteOffset: row.byteOffset)
        let outcome = try tx.store(fields, idHash: row.idHash, lookFirst: lastWasDuplicate)
        lastWasDuplicate = outcome == .duplicate
        switch outcome {
        case .stored:
          counts.eventsStored += 1
          stored[index] = true
          return tx.lastEventPK
        case .duplicate:
          counts.duplicates += 1
        case .conflict:
          counts.conflicts += 1
          let eventID = String(decoding: fields.eventID, as: UTF8.self)
          let rejection = Rejection(
            .conflict, "event_id \"\(eventID)\" is already stored with other content; the stored version is kept")
          try quarantine(
            tx, rejection, sourceIndex: row.sourceIndex, line: row.line, byteOffset: row.byteOffset,
            raw: fields.raw, eventID: eventID)
        }
        return nil
      }

      // Lines whose id (hash) repeats within the batch go first and in input order: which
      // version is stored must not depend on how the batch is grouped.
      for index in batch.repeatedIDRows {
        if let pk = try store(index) {
          try tx.recordSpan(sessionRef: refs[batch.rows[index].sessionIndex], first: pk, last: pk)
        }
      }
      // The rest session by session, so each session's events get consecutive event_pk values:
      // one span row per session and batch instead of an index entry per event.
      for (sessionIndex, session) in batch.sessions.enumerated() {
        var span: (first: Int64, last: Int64)?
        for index in session.rowIndices where !batch.rows[index].idRepeatsInBatch {
          if let pk = try store(index) { span = (span?.first ?? pk, pk) }
        }
        if let span { try tx.recordSpan(sessionRef: refs[sessionIndex], first: span.first, last: span.last) }
      }
      for line in batch.rejected {
        counts.quarantined += 1
        try quarantine(
          tx, line.rejection, sourceIndex: line.sourceIndex, line: line.line, byteOffset: line.byteOffset,
          raw: line.raw.bytes(in: arena), eventID: nil)
      }
    }
    times.storeEvents += lap(&clock)

    for (i, session) in batch.sessions.enumerated() {
      let storedCount = session.rowIndices.count { stored[$0] }
      guard storedCount > 0 else { continue }
      // The reading thread's derivation holds when the batch has all of the session's events.
      var derived: DerivedSession
      if let ahead = session.derived, !existed[i], storedCount == session.rowIndices.count {
        derived = ahead
      } else {
        derived = SessionDeriver.derive(try storedEvents(tx, refs[i]), profiles: profiles)
        times.derive += lap(&clock)
      }
      try tx.save(derived, ref: refs[i], isNew: !existed[i])
      times.storeSessions += lap(&clock)
      counts.sessionsDerived += 1
    }
    return counts
  }

  /// Seconds since `clock`, which moves on to now.
  private func lap(_ clock: inout ContinuousClock.Instant) -> Double {
    let now = ContinuousClock.now
    let d = now - clock
    clock = now
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }

  private func quarantine(
    _ tx: IngestTransaction, _ rejection: Rejection, sourceIndex: Int, line: Int, byteOffset: Int,
    raw: UnsafeRawBufferPointer, eventID: String?
  ) throws {
    try tx.quarantine(
      source: sourceNames[sourceIndex], line: line, byteOffset: byteOffset,
      category: rejection.reason.rawValue, reason: rejection.message, raw: raw,
      rawIsUTF8: rejection.reason != .invalidUTF8 && String(validating: raw, as: UTF8.self) != nil,
      eventID: eventID, runID: runID)
  }

  private mutating func storedEvents(_ tx: IngestTransaction, _ ref: Int64) throws -> [RecordedEvent] {
    try tx.storedEvents(ofSession: ref).compactMap { stored in
      // Stored lines passed these rules when they were stored; one that no longer does (the
      // rules changed) is left out rather than failing the batch.
      guard case .event(let event) = storedLineDecoder.decode(stored.raw) else { return nil }
      return RecordedEvent(event: event, source: stored.source, line: stored.line)
    }
  }
}
