package import GRDB

/// One stored event as `export` and the tests read it back: its bytes, its id, where it came
/// from and where it is kept.
package struct StoredEventLine {
  package var info: StoredLineInfo
  /// Both valid during the call that hands them over.
  package var eventID: UnsafeRawBufferPointer
  package var raw: UnsafeRawBufferPointer
  /// Where it is: `event_keys` has the same block and slot.
  package var blockID: Int64
  package var slot: Int
}

/// Streams the stored events a `RawEventSelection` picks, block by block in the order they
/// were written and in slot order within a block: a file's lines in file order when it was
/// ingested alone, grouped by session within each transaction.
package enum StoredEventReader {
  package static func forEach(
    _ selection: RawEventSelection, in db: Database, _ body: (StoredEventLine) throws -> Void
  ) throws {
    let lines = try StoredLines(db)
    let sessions = try sessionRefs(selection, db)
    let blocks = try RawStatement(db, blockSQL(selection))
    var index: Int32 = 1
    if let runID = selection.runID {
      blocks.bind(index, runID)
      index += 1
    }
    if let since = selection.sinceMs {
      blocks.bind(index, since)
      index += 1
    }
    if let until = selection.untilMs { blocks.bind(index, until) }
    var ids = try blocks.rows("choosing the blocks to export") { $0.int64(0) }
    let wanted = sessions.map { Set($0) }
    if let sessions {
      let ofSessions = try Self.blocks(of: sessions, db)
      ids = ids.filter(ofSessions.contains)
    }
    for id in ids {
      guard let block = try lines.block(id) else { continue }
      for (slot, line) in block.lines.enumerated() where selection.includes(line, sessions: wanted) {
        let info = StoredLineInfo(
          line: line.line, byteOffset: line.byteOffset, sourceName: try lines.sourceName(line.sourceID),
          sourceID: line.sourceID, sessionRef: line.sessionRef, timestamp: line.timestamp)
        try block.withLine(at: slot) { eventID, raw in
          try body(StoredEventLine(info: info, eventID: eventID, raw: raw, blockID: id, slot: slot))
        }
      }
    }
  }

  /// The refs of the sessions selected by id, app or platform; nil when none of those is given.
  private static func sessionRefs(_ selection: RawEventSelection, _ db: Database) throws -> [Int64]? {
    guard !selection.sessionIDs.isEmpty || selection.app != nil || selection.platform != nil else { return nil }
    var conditions: [String] = []
    var arguments: [(any DatabaseValueConvertible)?] = []
    if !selection.sessionIDs.isEmpty {
      conditions.append(
        "session_id IN (\(Array(repeating: "?", count: selection.sessionIDs.count).joined(separator: ", ")))")
      arguments += selection.sessionIDs.map { $0 }
    }
    if let app = selection.app {
      conditions.append("app = ?")
      arguments.append(app)
    }
    if let platform = selection.platform {
      conditions.append("platform = ?")
      arguments.append(platform)
    }
    return try Int64.fetchAll(
      db,
      sql: "SELECT session_ref FROM sessions WHERE " + conditions.joined(separator: " AND ") + " ORDER BY session_ref",
      arguments: StatementArguments(arguments))
  }

  /// The blocks that hold events of `sessions` (`session_blocks`).
  private static func blocks(of sessions: [Int64], _ db: Database) throws -> Set<Int64> {
    let select = try RawStatement(db, "SELECT block_id FROM session_blocks WHERE session_ref = ?")
    var ids = Set<Int64>()
    for ref in sessions {
      select.bind(1, ref)
      try select.forEachRow("finding the blocks of session \(ref)") { ids.insert($0.int64(0)) }
    }
    return ids
  }

  /// The blocks that may hold selected events, by run and time (`event_blocks`).
  private static func blockSQL(_ selection: RawEventSelection) -> String {
    var conditions: [String] = []
    if selection.runID != nil { conditions.append("b.run_id = ?") }
    if selection.sinceMs != nil { conditions.append("b.last_ts_ms >= ?") }
    if selection.untilMs != nil { conditions.append("b.first_ts_ms < ?") }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    return "SELECT b.block_id FROM event_blocks b" + filter + " ORDER BY b.block_id"
  }
}
