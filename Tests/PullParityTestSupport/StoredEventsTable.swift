import Foundation
package import GRDB
import PullParityCore
package import PullParityStore

/// The stored events as the `events` table of schema versions 1-10 held them, rebuilt from the
/// blocks for tests that check what was stored: an in-memory database with the file attached
/// read-only (its tables readable by their names) and a table `events` of the old columns,
/// `event_pk` in storage order, the typed columns taken from the raw line by `json_extract`.
package enum StoredEventsTable {
  package static func read<T>(_ database: PullParityDatabase, _ body: (Database) throws -> T) throws -> T {
    let queue = try DatabaseQueue()
    return try queue.inDatabase { db in
      try db.execute(sql: "ATTACH DATABASE ? AS stored", arguments: ["file:\(database.path)?mode=ro"])
      try db.execute(
        sql: """
          CREATE TABLE main.events (
            event_pk INTEGER PRIMARY KEY, event_id TEXT, id_hash INTEGER, session_id TEXT, session_ref INTEGER,
            ts_ms REAL, seq INTEGER, platform TEXT, app TEXT, type TEXT, source_id INTEGER, line INTEGER,
            byte_offset INTEGER, raw TEXT, block_id INTEGER, slot INTEGER)
          """)
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO main.events (event_id, block_id, slot, session_ref, ts_ms, source_id, line, byte_offset, raw)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      try StoredEventReader.forEach(RawEventSelection(), in: db) { event in
        try insert.execute(arguments: [
          Self.text(event.eventID), event.blockID, event.slot, event.info.sessionRef, event.info.timestamp,
          event.info.sourceID,
          event.info.line, event.info.byteOffset, Self.text(event.raw),
        ])
      }
      try db.execute(
        sql: """
          UPDATE main.events SET session_id = json_extract(raw, '$.session_id'), seq = json_extract(raw, '$.seq'),
            platform = json_extract(raw, '$.platform'), app = json_extract(raw, '$.app'),
            type = json_extract(raw, '$.type')
          WHERE json_valid(raw);
          UPDATE main.events SET id_hash = k.id_hash FROM stored.event_keys k
          WHERE k.block_id = events.block_id AND k.slot = events.slot
          """)
      return try body(db)
    }
  }

  /// Stored lines are valid UTF-8 (others are quarantined): as TEXT, byte for byte.
  private static func text(_ bytes: UnsafeRawBufferPointer) -> String { String(decoding: bytes, as: UTF8.self) }
}

extension StoredEventsTable {
  /// Replaces every stored line of session `sessionID` with `raw`, in place in its blocks: a
  /// file as an older release's rules would have stored lines today's rules refuse.
  package static func replaceLines(ofSession sessionID: String, with raw: String, in database: PullParityDatabase)
    throws
  {
    try database.write { db in
      let ref = try Int64.fetchOne(
        db, sql: "SELECT session_ref FROM sessions WHERE session_id = ?", arguments: [sessionID])
      let blocks = try Int64.fetchAll(
        db, sql: "SELECT block_id FROM session_blocks WHERE session_ref = ?", arguments: [ref])
      let lines = try StoredLines(db)
      for id in blocks {
        guard let block = try lines.block(id) else { continue }
        var builder = RawBlockBuilder()
        for (slot, line) in block.lines.enumerated() {
          block.withLine(at: slot) { eventID, stored in
            guard line.sessionRef == ref else { return builder.append(line, eventID: eventID, raw: stored) }
            Array(raw.utf8).withUnsafeBytes { builder.append(line, eventID: eventID, raw: $0) }
          }
        }
        let plain = builder.encoded()
        let packed = try plain.withUnsafeBytes { try Zstd.compress($0) }
        // A block rewritten in place carries the checksum of its new bytes, as the writer's do.
        let checksum = packed.withUnsafeBytes { BlockChecksum.of($0) }
        try db.execute(
          sql: "UPDATE event_blocks SET data = ?, raw_bytes = ?, checksum = ? WHERE block_id = ?",
          arguments: [Data(packed), plain.count, checksum, id])
      }
    }
  }
}
