import PullParityStore

/// Stores a batch's event rows one by one and keeps the tally. A struct with mutating methods
/// rather than a closure over local variables: captured variables are boxed and every access
/// to them is checked at run time, which the ingest hot path measurably paid for.
struct BatchEventWriter {
  let batch: IngestBatch
  let tx: IngestTransaction
  let refs: [Int64]
  let sourceIDs: [Int64]
  let quarantine: (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Void
  var counts = RunCounts()
  var stored: [Bool]
  private var lastWasDuplicate = false

  init(
    batch: IngestBatch, tx: IngestTransaction, refs: [Int64], sourceIDs: [Int64],
    quarantine: @escaping (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Void
  ) {
    self.batch = batch
    self.tx = tx
    self.refs = refs
    self.sourceIDs = sourceIDs
    self.quarantine = quarantine
    self.stored = [Bool](repeating: false, count: batch.rows.count)
  }

  /// Stores row `index`; returns its `event_pk` when it was stored.
  mutating func store(_ index: Int, arena: UnsafeRawBufferPointer) throws -> Int64? {
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
      try quarantine(rejection, row, fields.raw, eventID)
    }
    return nil
  }
}
