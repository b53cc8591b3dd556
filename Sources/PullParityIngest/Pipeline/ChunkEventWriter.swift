internal import PullParityStore

/// Stores a chunk's event rows and keeps the tally. A struct with mutating methods rather than
/// a closure over local variables: captured variables are boxed and every access to them is
/// checked at run time, which the ingest hot path measurably paid for.
struct ChunkEventWriter {
  let chunk: ParsedLines
  let tx: IngestTransaction
  let refs: [Int64]
  let sourceIDs: [Int64]
  let quarantine: (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Bool
  var counts = RunCounts()
  var stored: [Bool]
  private var lastWasDuplicate = false

  init(
    chunk: ParsedLines, tx: IngestTransaction, refs: [Int64], sourceIDs: [Int64],
    quarantine: @escaping (Rejection, EventRow, UnsafeRawBufferPointer, String) throws -> Bool
  ) {
    self.chunk = chunk
    self.tx = tx
    self.refs = refs
    self.sourceIDs = sourceIDs
    self.quarantine = quarantine
    self.stored = [Bool](repeating: false, count: chunk.rows.count)
  }

  /// Stores the rows at `indices`, in that order. After a duplicate the next row is looked up
  /// before it is inserted: a re-sent file is duplicates from end to end. Rows are read in
  /// place through the array's buffer: taken by subscript, each row (about 170 bytes) was
  /// copied out whole, twice, 1.3 % of an ingest's CPU in `perf`.
  mutating func store(_ indices: [Int], arena: UnsafeRawBufferPointer) throws {
    let rows = chunk.rows
    try rows.withUnsafeBufferPointer { rows in
      for index in indices {
        let fields = rows[index].fields(
          arena, sessionRef: refs[rows[index].sessionIndex], sourceID: sourceIDs[rows[index].sourceIndex])
        try record(index, try tx.store(fields, idKey: rows[index].idKey, lookFirst: lastWasDuplicate), arena)
      }
    }
  }

  private mutating func record(_ index: Int, _ outcome: EventStoreOutcome, _ arena: UnsafeRawBufferPointer) throws {
    lastWasDuplicate = outcome == .duplicate
    switch outcome {
    case .stored:
      counts.eventsStored += 1
      stored[index] = true
    case .duplicate:
      counts.duplicates += 1
    case .conflict:
      let row = chunk.rows[index]
      let raw = row.raw.bytes(in: arena)
      let eventID = String(decoding: row.eventID.bytes(in: arena), as: UTF8.self)
      let rejection = Rejection(.conflict, IngestTransaction.conflictReason(eventID))
      if try quarantine(rejection, row, raw, eventID) {
        counts.conflicts += 1
      } else {
        counts.alreadyQuarantined += 1
      }
    }
  }
}
