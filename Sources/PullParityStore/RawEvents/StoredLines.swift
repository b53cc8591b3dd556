package import GRDB

/// A stored line with what was kept of where it came from.
package struct StoredLineInfo {
  package var line: Int
  package var byteOffset: Int
  package var sourceName: String
  package var sourceID: Int64
  package var sessionRef: Int64
  package var timestamp: Double
}

/// Reads a session's stored lines back from its blocks (`session_blocks`): ingest re-deriving
/// a session, replay, the cross-session judge and `pullparity session` read through it.
package final class StoredLines {
  private let db: Database
  private let blocksOfSession: RawStatement
  private let reader: RawBlockReader
  private var sourceNames: [Int64: String] = [:]

  package init(_ db: Database) throws {
    self.db = db
    blocksOfSession = try RawStatement(
      db, "SELECT block_id FROM session_blocks WHERE session_ref = ? ORDER BY block_id")
    reader = try RawBlockReader(db)
  }

  /// Hands `body` each stored line of session `ref`, in the order they were stored: where it
  /// came from, its event id and its bytes (both valid during the call). Returns the number of
  /// the session's blocks that `retain` dropped (0: every line was read).
  @discardableResult
  package func forEachLine(
    ofSession ref: Int64, _ body: (StoredLineInfo, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
  ) throws -> Int {
    blocksOfSession.bind(1, ref)
    let blockColumn = blocksOfSession.column("block_id")
    let ids = try blocksOfSession.rows("finding the blocks of session \(ref)") { $0.int64(blockColumn) }
    var dropped = 0
    for id in ids {
      guard let block = try reader.block(id) else {
        dropped += 1
        continue
      }
      try forEachLine(of: block, where: { $0.sessionRef == ref }, body)
    }
    return dropped
  }

  /// Hands `body` the lines of `block` that `include` selects, in slot order.
  package func forEachLine(
    of block: RawBlock, where include: (RawLine) -> Bool,
    _ body: (StoredLineInfo, UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void
  ) throws {
    for (slot, line) in block.lines.enumerated() where include(line) {
      let info = StoredLineInfo(
        line: line.line, byteOffset: line.byteOffset, sourceName: try sourceName(line.sourceID),
        sourceID: line.sourceID, sessionRef: line.sessionRef, timestamp: line.timestamp)
      try block.withLine(at: slot) { eventID, raw in try body(info, eventID, raw) }
    }
  }

  /// A block by id through this reader's cache, or nil when `retain` dropped it.
  package func block(_ id: Int64) throws -> RawBlock? { try reader.block(id) }

  /// The name of source `id`, read once.
  package func sourceName(_ id: Int64) throws -> String {
    if let name = sourceNames[id] { return name }
    let name =
      try String.fetchOne(db, sql: "SELECT name FROM sources WHERE source_id = ?", arguments: [id])
      ?? "source \(id)"
    sourceNames[id] = name
    return name
  }
}
