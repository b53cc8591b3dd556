import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// The duplicate check at the level of the store: duplicates, conflicts, and ids whose hashes
/// collide (forced here, since real 64-bit collisions are too rare to meet in a test).
@Suite struct IngestTransactionTests {
  /// The first key of key epoch 1, where the keys of random ids go in a new file.
  let epochOne = Int64.min + 1 << 44

  func store(
    eventID: String, raw: String, idKey: Int64, in tx: IngestTransaction, source: Int64, lookFirst: Bool
  ) throws -> EventStoreOutcome {
    let key = IDKey(value: idKey, isTimeOrdered: EventKey.isTimeOrdered(eventID))
    var eventID = eventID
    var raw = raw
    var texts = ("s1", "ios", "padel", "pull_start")
    return try eventID.withUTF8 { id in
      try raw.withUTF8 { raw in
        try texts.0.withUTF8 { session in
          try texts.1.withUTF8 { platform in
            try texts.2.withUTF8 { app in
              try texts.3.withUTF8 { type in
                let fields = EventFields(
                  eventID: UnsafeRawBufferPointer(id), sessionID: UnsafeRawBufferPointer(session),
                  platform: UnsafeRawBufferPointer(platform), app: UnsafeRawBufferPointer(app),
                  type: UnsafeRawBufferPointer(type), raw: UnsafeRawBufferPointer(raw), timestamp: 1_795_000_000_000,
                  seq: nil, sessionRef: 1, sourceID: source, line: 1, byteOffset: 0)
                return try tx.store(fields, idKey: key, lookFirst: lookFirst)
              }
            }
          }
        }
      }
    }
  }

  /// Stores (id, raw) rows in order, under the given keys, one transaction's worth.
  func storeAll(
    _ rows: [(String, String)], idKeys: [Int64], in tx: IngestTransaction, source: Int64
  ) throws -> [EventStoreOutcome] {
    try zip(rows, idKeys).map { row, key in
      try store(eventID: row.0, raw: row.1, idKey: key, in: tx, source: source, lookFirst: false)
    }
  }

  /// The stored events' ids and keys, in storage order.
  static func storedKeys(_ database: PullParityDatabase, order: String = "event_pk") throws -> [String] {
    try StoredEventsTable.read(database) { db in
      try Row.fetchAll(db, sql: "SELECT event_id, id_hash FROM events ORDER BY \(order)").map {
        "\($0[0] as String):\($0[1] as Int64)"
      }
    }
  }

  @Test(arguments: [false, true])
  func duplicatesConflictsAndCollidingIds(lookFirst: Bool) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("keys.sqlite"))
    try database.write { db in
      let tx = try IngestTransaction(db)
      let source = try tx.sourceID(named: "test.jsonl")
      func put(_ id: String, _ raw: String) throws -> EventStoreOutcome {
        // "a" and "b" are made to share hash 7: "b" is stored under the next value.
        try store(eventID: id, raw: raw, idKey: 7, in: tx, source: source, lookFirst: lookFirst)
      }
      #expect(try put("a", #"{"event_id":"a"}"#) == .stored)
      #expect(try put("b", #"{"event_id":"b"}"#) == .stored)
      #expect(try put("b", #"{"event_id":"b"}"#) == .duplicate)
      #expect(try put("b", #"{"event_id":"b","x":1}"#) == .conflict)
      #expect(try put("a", #"{"event_id":"a"}"#) == .duplicate)
      try tx.finishBlocks()
    }
    // Random ids: the hash's low bits in key epoch 1, the first open one.
    #expect(try Self.storedKeys(database) == ["a:\(epochOne + 7)", "b:\(epochOne + 8)"])
  }

  /// Eight events in a row: new ones, a duplicate, a conflict and an id whose hash is taken by
  /// another id.
  @Test func eachEventOfATransactionIsSortedOut() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("group.sqlite"))
    try database.write { db in
      let tx = try IngestTransaction(db)
      let source = try tx.sourceID(named: "test.jsonl")
      func put(_ id: String, _ raw: String, _ hash: Int64) throws -> EventStoreOutcome {
        try store(eventID: id, raw: raw, idKey: hash, in: tx, source: source, lookFirst: false)
      }
      #expect(try put("dup", "dup-line", 100) == .stored)
      #expect(try put("conf", "conf-line", 101) == .stored)
      #expect(try put("other", "other-line", 102) == .stored)
      // Group: 5 new ids, "dup" again, "conf" with other content, and "late" whose hash (102)
      // is taken by "other".
      let group: [(String, String, Int64)] = [
        ("n1", "n1-line", 1), ("dup", "dup-line", 100), ("n2", "n2-line", 2), ("conf", "conf-line-2", 101),
        ("n3", "n3-line", 3), ("late", "late-line", 102), ("n4", "n4-line", 4), ("n5", "n5-line", 5),
      ]
      let results = try storeAll(group.map { ($0.0, $0.1) }, idKeys: group.map(\.2), in: tx, source: source)
      #expect(results == [.stored, .duplicate, .stored, .conflict, .stored, .stored, .stored, .stored])
      try tx.finishBlocks()
    }
    let expected: [(String, Int64)] = [
      ("conf", 101), ("dup", 100), ("late", 103), ("n1", 1), ("n2", 2), ("n3", 3), ("n4", 4), ("n5", 5),
      ("other", 102),
    ]
    #expect(try Self.storedKeys(database, order: "event_id") == expected.map { "\($0.0):\(epochOne + $0.1)" })
  }

  /// Where the stored copy of an id is when it comes again in the same transaction: in a block
  /// written (first, last and middle slots), in the full block still being compressed (3: its
  /// row is written before it is read) or in the block being filled. Each must tell a
  /// duplicate from a conflict.
  @Test(arguments: [
    (block: 1, slot: 5), (block: 2, slot: 4_095), (block: 3, slot: 0), (block: 4, slot: 2), (block: 4, slot: 9),
  ])
  func anEventSeenAgainIsFoundWhereverItsBlockIs(block: Int, slot: Int) throws {
    let linesPerBlock = 4_096
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("blocks.sqlite"))
    let ids = (0..<(3 * linesPerBlock + 10)).map { "id-\($0)" }
    func raw(_ id: String) -> String { #"{"event_id":"\#(id)"}"# }
    let again = ids[(block - 1) * linesPerBlock + slot]
    try database.write { db in
      let tx = try IngestTransaction(db)
      let source = try tx.sourceID(named: "test.jsonl")
      let first = try storeAll(ids.map { ($0, raw($0)) }, idKeys: ids.indices.map(Int64.init), in: tx, source: source)
      #expect(first.allSatisfy { $0 == .stored })
      // Blocks 1 and 2 are written, 3 is being compressed, 4 is being filled.
      let key = Int64(ids.firstIndex(of: again)!)
      #expect(try storeAll([(again, raw(again))], idKeys: [key], in: tx, source: source) == [.duplicate])
      #expect(try storeAll([(again, raw(again) + " ")], idKeys: [key], in: tx, source: source) == [.conflict])
      try tx.finishBlocks()
    }
    let blocks = try database.read { db in
      try Int.fetchAll(db, sql: "SELECT lines FROM event_blocks ORDER BY block_id")
    }
    #expect(blocks == [linesPerBlock, linesPerBlock, linesPerBlock, 10])
    let stored = try StoredEventsTable.read(database) { db in
      try Row.fetchAll(db, sql: "SELECT event_id, raw FROM events ORDER BY block_id, slot").map {
        [$0[0], $0[1]] as [String]
      }
    }
    #expect(stored == ids.map { [$0, raw($0)] })
  }
}
