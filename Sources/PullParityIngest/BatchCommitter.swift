import PullParityCore
import PullParityStore

/// Writes one batch in one transaction: events (skipping duplicates, quarantining conflicts),
/// rejected lines, and a fresh derivation of every session the batch touched.
///
/// A session seen for the first time is derived from the batch's own events; only sessions
/// that already had stored events are read back from the database, so a clean ingest never
/// reads what it just wrote.
struct BatchCommitter {
  let database: PullParityDatabase
  let profiles: ProfileCatalog
  let runID: Int64
  let sourceNames: [String]
  /// Re-parses stored raw lines of sessions that continue across batches.
  var storedLineDecoder: LineDecoder

  mutating func commit(
    _ batch: IngestBatch, totalsBefore: RunCounts, times: inout IngestStageTimes
  ) throws -> RunCounts {
    let started = ContinuousClock.now
    var inner = 0.0
    let counts = try database.write { db in
      var clock = ContinuousClock.now
      let tx = try IngestTransaction(db)
      var counts = RunCounts()
      counts.linesRead = batch.linesRead
      counts.blankLines = batch.blankLines
      var touched: [String: [RecordedEvent]] = [:]

      try batch.arena.withUnsafeBytes { arena in
        for pending in batch.lines {
          let raw = UnsafeRawBufferPointer(rebasing: arena[pending.rawStart..<(pending.rawStart + pending.rawCount)])
          let source = sourceNames[pending.sourceIndex]
          switch pending.content {
          case .event(let event):
            let sourceID = try tx.sourceID(named: source)
            switch try tx.store(event, raw: raw, sourceID: sourceID, line: pending.line, byteOffset: pending.byteOffset) {
            case .stored:
              counts.eventsStored += 1
              touched[event.sessionID, default: []].append(
                RecordedEvent(event: event, source: source, line: pending.line))
            case .duplicate:
              counts.duplicates += 1
            case .conflict:
              counts.conflicts += 1
              let rejection = Rejection(
                .conflict,
                "event_id \"\(event.eventID)\" is already stored with other content; the stored version is kept")
              try quarantine(tx, pending, source: source, raw: raw, rejection: rejection, eventID: event.eventID)
            }
          case .rejected(let rejection):
            counts.quarantined += 1
            try quarantine(tx, pending, source: source, raw: raw, rejection: rejection, eventID: nil)
          }
        }
      }

      times.storeEvents += lap(&clock)
      for (sessionID, batchEvents) in touched {
        let events = try tx.sessionExists(sessionID) ? try storedEvents(tx, sessionID) : batchEvents
        let session = SessionDeriver.derive(events, profiles: profiles)
        times.derive += lap(&clock)
        try tx.save(session)
        times.storeSessions += lap(&clock)
        counts.sessionsDerived += 1
      }
      var totals = totalsBefore
      totals += counts
      try IngestLedger.record(db, runID: runID, totals: totals)
      inner = BatchProducer.seconds(since: started)
      return counts
    }
    times.commit += BatchProducer.seconds(since: started) - inner
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
    _ tx: IngestTransaction, _ pending: PendingLine, source: String, raw: UnsafeRawBufferPointer,
    rejection: Rejection, eventID: String?
  ) throws {
    try tx.quarantine(
      source: source, line: pending.line, byteOffset: pending.byteOffset,
      category: rejection.reason.rawValue, reason: rejection.message, raw: raw,
      rawIsUTF8: rejection.reason != .invalidUTF8 && String(validating: raw, as: UTF8.self) != nil,
      eventID: eventID, runID: runID)
  }

  private mutating func storedEvents(_ tx: IngestTransaction, _ sessionID: String) throws -> [RecordedEvent] {
    try tx.storedEvents(ofSession: sessionID).compactMap { stored in
      // Stored lines passed these rules when they were stored; one that no longer does (the
      // rules changed) is left out rather than failing the batch.
      guard case .event(let event) = storedLineDecoder.decode(stored.raw) else { return nil }
      return RecordedEvent(event: event, source: stored.source, line: stored.line)
    }
  }
}
