import CXXHash
import Foundation
internal import GRDB
import Synchronization

/// The checksum of a stored block (schema version 14): XXH3-64 of its blob as stored, the zstd
/// frame whole, so that a flipped bit anywhere in it (header, directory or lines) is found
/// before a byte is decompressed. About 20 GB/s: nothing beside zstd.
package enum BlockChecksum {
  package static func of(_ data: UnsafeRawBufferPointer) -> Int64 {
    Int64(bitPattern: XXH3_64bits(data.baseAddress, data.count))
  }

  /// Checks `data` against the checksum its row holds; a block written before schema version 14
  /// has none (nil) and is read unchecked, with one warning per command.
  static func check(_ data: UnsafeRawBufferPointer, stored: Int64?, block: BlockName, warn: Bool = true) throws {
    guard let stored else {
      if warn { warnUnchecked() }
      return
    }
    let computed = of(data)
    guard computed != stored else { return }
    throw BlockDamage(
      block: block,
      problem: "its checksum does not match its bytes (stored \(hex(stored)), computed \(hex(computed)))")
  }

  static func hex(_ value: Int64) -> String { "0x" + String(UInt64(bitPattern: value), radix: 16) }

  private static let warned = Mutex(false)

  /// Once per process: blocks without a checksum are read as they are.
  static func warnUnchecked() {
    let first = warned.withLock { warned in
      defer { warned = true }
      return !warned
    }
    guard first else { return }
    FileHandle.standardError.write(
      Data(
        ("warning: this file has raw event blocks written before schema version 14, without a checksum: they are "
          + "read unchecked (`pullparity verify` decompresses and checks every block; `retain` gives a block it "
          + "rewrites a checksum)\n").utf8))
  }
}

/// Which block: of raw events (`event_blocks`) or of quarantined lines (`quarantine_blocks`).
package enum BlockKind: String, Sendable {
  case events = "raw event block"
  case quarantine = "quarantine block"
}

package struct BlockName: Sendable, Hashable {
  package var kind: BlockKind
  package var id: Int64
  package init(_ kind: BlockKind, _ id: Int64) {
    self.kind = kind
    self.id = id
  }
}

/// A stored block whose bytes are not what was written: its checksum, its zstd frame or its
/// directory does not hold. Nothing of it is returned as data; the message names the block and
/// what it held (`BlockDamage.described`), and the command fails (exit 2).
package struct BlockDamage: Error, CustomStringConvertible, Sendable {
  package var block: BlockName
  package var problem: String
  /// What the block holds, for people: its sessions and time range, or its quarantined lines.
  package var holds: String?

  package init(block: BlockName, problem: String, holds: String? = nil) {
    self.block = block
    self.problem = problem
    self.holds = holds
  }

  package var description: String {
    var text = "\(block.kind.rawValue) \(block.id) is damaged: \(problem)"
    if let holds { text += "\nIt holds \(holds)." }
    text +=
      "\nIts lines are not read. `pullparity verify` lists every damaged block; restore the file from a copy, "
      + "or ingest the logs again into a new file."
    return text
  }

  /// The same error with what the block holds, read from the database (its sessions and time
  /// range, or its quarantined lines' files, lines and runs).
  func described(_ db: Database) -> BlockDamage {
    var copy = self
    copy.holds = try? BlockContents.describe(block, db)
    return copy
  }
}

/// What a block holds, as a damage report names it.
enum BlockContents {
  static func describe(_ block: BlockName, _ db: Database) throws -> String? {
    switch block.kind {
    case .events:
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT lines, first_ts_ms, last_ts_ms, run_id FROM event_blocks WHERE block_id = ?",
          arguments: [block.id])
      else { return nil }
      let sessions = try String.fetchAll(
        db,
        sql: """
          SELECT coalesce(s.session_id, 'session ref ' || b.session_ref)
          FROM session_blocks b LEFT JOIN sessions s USING (session_ref)
          WHERE b.block_id = ? ORDER BY b.session_ref
          """, arguments: [block.id])
      let shown = sessions.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
      let more = sessions.count > 5 ? " and \(sessions.count - 5) more" : ""
      let run: Int64? = row["run_id"]
      return "\(row["lines"] as Int64) lines of \(sessions.count) session\(sessions.count == 1 ? "" : "s") "
        + "(\(shown)\(more)), event times \(time(row["first_ts_ms"])) to \(time(row["last_ts_ms"]))"
        + (run.map { ", written by run \($0)" } ?? ", converted from an older file")
    case .quarantine:
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT lines, run_id FROM quarantine_blocks WHERE block_id = ?", arguments: [block.id])
      else { return nil }
      let places = try Row.fetchAll(
        db,
        sql: """
          SELECT s.name AS source, min(q.line) AS first, max(q.line) AS last, count(*) AS lines
          FROM quarantined_lines q JOIN sources s USING (source_id) WHERE q.block_id = ?
          GROUP BY q.source_id ORDER BY s.name
          """, arguments: [block.id])
      let shown = places.prefix(5).map { place -> String in
        let (source, first, last): (String, Int, Int) = (place["source"], place["first"], place["last"])
        return "\"\(source)\" lines \(first)-\(last)"
      }
      let more = places.count > 5 ? " and \(places.count - 5) more files" : ""
      return "\(row["lines"] as Int64) quarantined lines (\(shown.joined(separator: ", "))\(more)), "
        + "quarantined by run \(row["run_id"] as Int64)"
    }
  }

  private static func time(_ ms: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: ms / 1000))
  }
}
