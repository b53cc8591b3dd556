internal import PullParityStore

/// Stores a chunk's event rows, eight to a statement where it can, keeps the tally, and
/// records where each session's events landed. A struct with mutating methods rather than a
/// closure over local variables: captured variables are boxed and every access to them is
/// checked at run time, which the ingest hot path measurably paid for.
struct ChunkEventWriter {
  let chunk: IngestChunk
  let tx: IngestTransaction
  let refs: [Int64]
  let sourceIDs: [Int64]
  let quarantine: (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Bool
  var counts = RunCounts()
  var stored: [Bool]
  private var lastWasDuplicate = false
  /// Per session, the run of consecutive `event_pk` values being filled.
  private var openSpans: [(first: Int64, last: Int64)?]

  init(
    chunk: IngestChunk, tx: IngestTransaction, refs: [Int64], sourceIDs: [Int64],
    quarantine: @escaping (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Bool
  ) {
    self.chunk = chunk
    self.tx = tx
    self.refs = refs
    self.sourceIDs = sourceIDs
    self.quarantine = quarantine
    self.stored = [Bool](repeating: false, count: chunk.rows.count)
    self.openSpans = Array(repeating: nil, count: chunk.sessions.count)
  }

  /// Stores the rows at `indices`, in that order.
  mutating func store(_ indices: [Int], groupable: Bool, arena: UnsafeRawBufferPointer) throws {
    let size = IngestTransaction.groupSize
    var start = 0
    // Grouping pays for inserts; looking up duplicates one by one is faster than in groups.
    if groupable {
      // The closure reads copies of what it needs: calling a method of `self` from it copied the
      // whole writer (its arrays retained and released) for every row.
      let (rows, refs, sourceIDs) = (chunk.rows, refs, sourceIDs)
      while start + size <= indices.count, !lastWasDuplicate {
        let group = Array(indices[start..<(start + size)])
        let results = try tx.storeGroup(
          { Self.fields(rows[group[$0]], refs: refs, sourceIDs: sourceIDs, arena) },
          idKeys: group.map { rows[$0].idKey })
        for (index, result) in zip(group, results) { try record(index, result.outcome, result.pk, arena) }
        start += size
      }
    }
    for index in indices[start...] {
      let outcome = try tx.store(fields(index, arena), idKey: chunk.rows[index].idKey, lookFirst: lastWasDuplicate)
      try record(index, outcome, outcome == .stored ? tx.lastEventPK : nil, arena)
    }
  }

  /// Writes the spans still open; call once all rows are stored.
  mutating func closeSpans() throws {
    for (session, span) in openSpans.enumerated() {
      if let span { try tx.recordSpan(sessionRef: refs[session], first: span.first, last: span.last) }
    }
    openSpans = Array(repeating: nil, count: openSpans.count)
  }

  private func fields(_ index: Int, _ arena: UnsafeRawBufferPointer) -> EventFields {
    Self.fields(chunk.rows[index], refs: refs, sourceIDs: sourceIDs, arena)
  }

  private static func fields(
    _ row: EventRow, refs: [Int64], sourceIDs: [Int64], _ arena: UnsafeRawBufferPointer
  ) -> EventFields {
    EventFields(
      eventID: row.eventID.bytes(in: arena), sessionID: row.sessionID.bytes(in: arena),
      platform: row.platform.bytes(in: arena), app: row.app.bytes(in: arena), type: row.type.bytes(in: arena),
      raw: row.raw.bytes(in: arena), timestamp: row.timestamp, seq: row.seq,
      sessionRef: refs[row.sessionIndex], sourceID: sourceIDs[row.sourceIndex], line: row.line,
      byteOffset: row.byteOffset)
  }

  private mutating func record(
    _ index: Int, _ outcome: EventStoreOutcome, _ pk: Int64?, _ arena: UnsafeRawBufferPointer
  ) throws {
    lastWasDuplicate = outcome == .duplicate
    let row = chunk.rows[index]
    switch outcome {
    case .stored:
      counts.eventsStored += 1
      stored[index] = true
      guard let pk else { return }
      let session = row.sessionIndex
      if let span = openSpans[session], span.last + 1 == pk {
        openSpans[session] = (span.first, pk)
      } else {
        if let span = openSpans[session] {
          try tx.recordSpan(sessionRef: refs[session], first: span.first, last: span.last)
        }
        openSpans[session] = (pk, pk)
      }
    case .duplicate:
      counts.duplicates += 1
    case .conflict:
      let raw = row.raw.bytes(in: arena)
      let eventID = String(decoding: row.eventID.bytes(in: arena), as: UTF8.self)
      let rejection = Rejection(
        .conflict, "event_id \"\(eventID)\" is already stored with other content; the stored version is kept")
      if try quarantine(rejection, row, raw, eventID) {
        counts.conflicts += 1
      } else {
        counts.alreadyQuarantined += 1
      }
    }
  }
}
