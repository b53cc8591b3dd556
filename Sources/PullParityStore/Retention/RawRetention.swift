package import Foundation
package import GRDB

/// What one run of `pullparity retain` dropped (a row of `retention_runs`).
package struct RetentionRecord: Codable, Equatable, Sendable {
  package var retentionID: Int64
  package var retainedAt: String
  package var beforeMs: Double
  /// Blocks deleted whole: every line in them was dropped.
  package var blocks: Int
  /// Blocks that held lines dropped and lines kept: the kept ones were written into new blocks.
  package var blocksRewritten: Int
  package var events: Int
  /// Compressed bytes freed: the blocks deleted and rewritten, less the blocks written anew.
  package var bytes: Int
  package var sessions: Int

  enum CodingKeys: String, CodingKey {
    case retentionID = "retention_id"
    case retainedAt = "retained_at"
    case beforeMs = "before_ms"
    case blocksRewritten = "blocks_rewritten"
    case blocks, events, bytes, sessions
  }

  /// An epoch-ms time as RFC 3339 in UTC, for people: `2026-11-18T00:00:00Z`.
  package static func time(_ ms: Double) -> String {
    let formatter = ISO8601DateFormatter()
    if ms.truncatingRemainder(dividingBy: 1000) != 0 {
      formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }
    return formatter.string(from: Date(timeIntervalSince1970: ms / 1000))
  }
}

/// The retention run that dropped a session's raw events (`sessions_without_raw`).
package struct RawDrop: Equatable, Sendable {
  package var retentionID: Int64
  package var retainedAt: String
  package var beforeMs: Double
}

/// Drops raw events older than a time, keeping every derived row, the quarantine and the
/// ledger.
///
/// The unit is the session, the unit a session is derived again from: a session whose every
/// stored line is older than the date loses all its lines; a session with any line at or after
/// the date keeps them all, also the older ones, so it can still be derived again (replay,
/// `session`, a late event). A block holding lines of both kinds is rewritten: its kept lines go
/// into new blocks (of the same run), their `event_keys` rows follow them, and the old block is
/// deleted. The keys of the dropped events stay (pointing at a block that no longer exists), so
/// a copy of a dropped event sent again counts as a duplicate and nothing is derived again.
/// The sessions that lose their lines are noted in `sessions_without_raw`: their derived rows
/// are kept as they are and never derived again.
///
/// The work goes in transactions of at most `blocksPerTransaction` blocks; each adds what it
/// dropped to the run's row of `retention_runs`, which the first of them writes: a run that
/// finds nothing to drop records nothing, and a run killed midway has a row that says what it
/// committed (running it again finishes the job). The pages freed go on SQLite's free list,
/// where the next ingests reuse them before the file grows (`vacuum`: VACUUM also returns them
/// to the file system).
package enum RawRetention {
  /// Blocks (about 512 KiB of lines each) read, rewritten or deleted per transaction.
  package static let blocksPerTransaction = 64

  /// Drops the raw events of the sessions whose every event is older than `beforeMs`; returns
  /// what was dropped, or nil when no session was old enough (and nothing was recorded).
  package static func drop(
    before beforeMs: Double, in database: PullParityDatabase, at now: Date,
    blocksPerTransaction: Int = blocksPerTransaction
  ) throws -> RetentionRecord? {
    let plan = try database.read { try RetentionPlan(before: beforeMs, $0) }
    guard !plan.blocks.isEmpty else { return nil }
    var run = RetentionRun(retainedAt: ISO8601DateFormatter().string(from: now), beforeMs: beforeMs, plan: plan)
    for start in stride(from: 0, to: plan.blocks.count, by: max(1, blocksPerTransaction)) {
      let batch = plan.blocks[start..<min(plan.blocks.count, start + max(1, blocksPerTransaction))]
      try database.write { try run.drop(Array(batch), $0) }
    }
    guard let id = run.id else { return nil }
    return try database.read { try records($0, id: id).first }
  }

  /// Every run of `retain`, newest first (`id`: only that one).
  package static func records(_ db: Database, id: Int64? = nil) throws -> [RetentionRecord] {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT retention_id, retained_at, before_ms, blocks, blocks_rewritten, events, bytes, sessions
        FROM retention_runs WHERE ?1 IS NULL OR retention_id = ?1 ORDER BY retention_id DESC
        """, arguments: [id])
    return rows.map {
      RetentionRecord(
        retentionID: $0["retention_id"], retainedAt: $0["retained_at"], beforeMs: $0["before_ms"],
        blocks: $0["blocks"], blocksRewritten: $0["blocks_rewritten"], events: $0["events"], bytes: $0["bytes"],
        sessions: $0["sessions"])
    }
  }
}

/// Which sessions lose their lines and which blocks hold them, read in one snapshot.
///
/// Every line of a block is at or after its `first_ts_ms` and at or before its `last_ts_ms`, so
/// only the blocks that straddle the date are decompressed: a session in a block all older holds
/// old lines there, and one in a block all newer is kept.
struct RetentionPlan {
  /// Sessions whose every line is older than the date.
  var sessions: Set<Int64>
  /// The blocks holding lines of those sessions, in write order.
  var blocks: [Int64]
  /// The newest block when planned: a session with lines in a later block got them since.
  var lastBlock: Int64

  init(before beforeMs: Double, _ db: Database) throws {
    lastBlock = try Int64.fetchOne(db, sql: "SELECT max(block_id) FROM event_blocks") ?? 0
    var old: [Int64: [Int64]] = [:]  // session -> its blocks older in part or whole
    var kept = Set<Int64>()
    let rows = try RawStatement(
      db,
      """
      SELECT sb.session_ref, sb.block_id, b.first_ts_ms < ?1 AS has_old, b.last_ts_ms >= ?1 AS has_new
      FROM session_blocks sb JOIN event_blocks b USING (block_id)
      """)
    rows.bind(1, beforeMs)
    var straddling = Set<Int64>()
    try rows.forEachRow("finding the sessions older than the date") { row in
      let (ref, block) = (row.int64(0), row.int64(1))
      let (hasOld, hasNew) = (row.int64(2) == 1, row.int64(3) == 1)
      if hasOld { old[ref, default: []].append(block) }
      if hasNew { if hasOld { straddling.insert(block) } else { kept.insert(ref) } }
    }
    let reader = try RawBlockReader(db, capacity: 1)
    for id in straddling.sorted() {
      guard let block = try reader.block(id) else { continue }
      for line in block.lines where line.timestamp >= beforeMs { kept.insert(line.sessionRef) }
    }
    sessions = Set(old.keys).subtracting(kept)
    blocks = Set(sessions.lazy.flatMap { old[$0]! }).sorted()
  }
}

/// One run of `retain`: its row of `retention_runs` and what it has dropped so far.
struct RetentionRun {
  let retainedAt: String
  let beforeMs: Double
  var plan: RetentionPlan
  private(set) var id: Int64?
  private var blocks = 0
  private var blocksRewritten = 0
  private var events = 0
  private var bytes = 0
  /// The sessions that lost lines in this run.
  private var sessions = Set<Int64>()
  /// The blocks this run wrote.
  private var written = Set<Int64>()

  init(retainedAt: String, beforeMs: Double, plan: RetentionPlan) {
    self.retainedAt = retainedAt
    self.beforeMs = beforeMs
    self.plan = plan
  }

  /// Drops the planned sessions' lines from `blockIDs`, in one transaction.
  mutating func drop(_ blockIDs: [Int64], _ db: Database) throws {
    try forgetSessionsGivenLinesSincePlanned(db)
    let reader = try RawBlockReader(db, capacity: 1)
    var whole: [(id: Int64, bytes: Int)] = []
    var mixed: [(id: Int64, runID: Int64?, bytes: Int, block: RawBlock)] = []
    var dropped = Set<Int64>()
    for id in blockIDs {
      guard let block = try reader.block(id) else { continue }
      let row = try Row.fetchOne(
        db, sql: "SELECT run_id, length(data) AS bytes FROM event_blocks WHERE block_id = ?", arguments: [id])!
      let refs = Set(block.lines.map(\.sessionRef))
      let gone = refs.intersection(plan.sessions)
      guard !gone.isEmpty else { continue }
      dropped.formUnion(gone)
      if gone == refs {
        whole.append((id, row["bytes"]))
        events += block.lines.count
      } else {
        mixed.append((id, row["run_id"], row["bytes"], block))
      }
    }
    guard !whole.isEmpty || !mixed.isEmpty else { return }
    let newBytes = try rewrite(mixed, db)
    for id in whole.map(\.id) + mixed.map(\.id) {
      try db.execute(sql: "DELETE FROM event_blocks WHERE block_id = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM session_blocks WHERE block_id = ?", arguments: [id])
    }
    blocks += whole.count
    blocksRewritten += mixed.count
    bytes += whole.map(\.bytes).reduce(0, +) + mixed.map(\.bytes).reduce(0, +) - newBytes
    sessions.formUnion(dropped)
    try record(db)
    for ref in dropped.sorted() {
      try db.execute(
        sql: "INSERT OR IGNORE INTO sessions_without_raw (session_ref, retention_id) VALUES (?, ?)",
        arguments: [ref, id])
    }
  }

  /// A session given a line since the plan (another run's block) may now have one at or after
  /// the date: it is kept this time, unless this run has already dropped lines of it.
  private mutating func forgetSessionsGivenLinesSincePlanned(_ db: Database) throws {
    let newer = try Int64.fetchAll(
      db, sql: "SELECT block_id FROM event_blocks WHERE block_id > ? ORDER BY block_id", arguments: [plan.lastBlock])
    let reader = try RawBlockReader(db, capacity: 1)
    for id in newer where !written.contains(id) {
      for line in try reader.block(id)?.lines ?? [] where !sessions.contains(line.sessionRef) {
        plan.sessions.remove(line.sessionRef)
      }
    }
    plan.lastBlock = newer.last ?? plan.lastBlock
  }

  /// Writes the kept lines of `mixed` into new blocks, one run's lines at a time, and points
  /// their keys there; returns the new blocks' compressed bytes.
  private mutating func rewrite(_ mixed: [(id: Int64, runID: Int64?, bytes: Int, block: RawBlock)], _ db: Database)
    throws -> Int
  {
    guard !mixed.isEmpty else { return 0 }
    let keys = try KeyFinder(db, blocks: mixed.map(\.id))
    let update = try RawStatement(db, "UPDATE event_keys SET block_id = ?, slot = ? WHERE id_hash = ?")
    let writer = try RawBlockWriter(db)
    let firstNew = writer.blockID
    let ordered = mixed.sorted { ($0.runID ?? -1, $0.id) < ($1.runID ?? -1, $1.id) }
    for (index, old) in ordered.enumerated() {
      if index == 0 || old.runID != writer.runID {
        try writer.flush()
        writer.runID = old.runID
      }
      for (slot, line) in old.block.lines.enumerated() {
        if plan.sessions.contains(line.sessionRef) {
          events += 1
          continue
        }
        let key = try old.block.withLine(at: slot) { eventID, _ in
          try keys.key(of: eventID, block: old.id, slot: slot)
        }
        let (block, newSlot) = writer.nextPlace
        update.bind(1, block)
        update.bind(2, newSlot)
        update.bind(3, key)
        try update.execute("moving the key of block \(old.id) slot \(slot)")
        try old.block.withLine(at: slot) { eventID, raw in try writer.append(line, eventID: eventID, raw: raw) }
      }
    }
    try writer.flush()
    written.formUnion(firstNew..<writer.blockID)
    return try Int.fetchOne(
      db, sql: "SELECT coalesce(sum(length(data)), 0) FROM event_blocks WHERE block_id >= ?", arguments: [firstNew])
      ?? 0
  }

  /// Writes the run's row, or adds this transaction's work to it.
  private mutating func record(_ db: Database) throws {
    if let id {
      try db.execute(
        sql: """
          UPDATE retention_runs SET blocks = ?, blocks_rewritten = ?, events = ?, bytes = ?, sessions = ?
          WHERE retention_id = ?
          """, arguments: [blocks, blocksRewritten, events, bytes, sessions.count, id])
      return
    }
    try db.execute(
      sql: """
        INSERT INTO retention_runs (retained_at, before_ms, blocks, blocks_rewritten, events, bytes, sessions)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """, arguments: [retainedAt, beforeMs, blocks, blocksRewritten, events, bytes, sessions.count])
    id = db.lastInsertedRowID
  }
}

/// Finds the `event_keys` row of a stored line as ingest's duplicate check finds an id: from
/// the key its id starts at (`EventKey`, `KeyEpochs`), probing on while the keys are taken by
/// other lines (a key is never freed, so the probing ends where ingest's did). Should a row be
/// missed, the blocks being rewritten are looked for in the whole table, once.
package final class KeyFinder {
  private let db: Database
  private let epochs = KeyEpochs(.events)
  private let select: RawStatement
  /// The blocks being rewritten, and their keys once looked for in the whole table.
  private let blocks: [Int64]
  private var scanned: [Int64: [Int: Int64]]?

  /// Whether a key was missed by probing and looked for in the table.
  package var scannedTable: Bool { scanned != nil }

  package init(_ db: Database, blocks: [Int64]) throws {
    self.db = db
    self.blocks = blocks
    try epochs.refresh(db)
    select = try RawStatement(db, "SELECT block_id, slot FROM event_keys WHERE id_hash = ?")
  }

  /// The key of the line of `eventID` at `slot` of `block`.
  package func key(of eventID: UnsafeRawBufferPointer, block: Int64, slot: Int) throws -> Int64 {
    let hash = EventKey.of(eventID)
    let starts = EventKey.isTimeOrdered(eventID) ? [hash] : epochs.closedKeys(hash) + [epochs.openKey(hash)]
    for start in starts {
      var key = start
      while let place = try place(of: key) {
        if place == (block, slot) { return key }
        key &+= 1
      }
    }
    if scanned == nil {
      var rows: [Int64: [Int: Int64]] = [:]
      let all = try RawStatement(
        db,
        "SELECT id_hash, block_id, slot FROM event_keys WHERE block_id IN ("
          + blocks.map(String.init).joined(separator: ", ") + ")")
      try all.forEachRow("finding the keys of a block to rewrite") {
        rows[$0.int64(1), default: [:]][Int($0.int64(2))] = $0.int64(0)
      }
      scanned = rows
    }
    guard let key = scanned?[block]?[slot] else {
      throw StoreError(
        context: "rewriting raw event block \(block)", message: "no event_keys row names its slot \(slot)")
    }
    return key
  }

  private func place(of key: Int64) throws -> (Int64, Int)? {
    select.bind(1, key)
    var place: (Int64, Int)?
    try select.forEachRow("looking up key \(key)") { place = ($0.int64(0), Int($0.int64(1))) }
    return place
  }
}
