import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Event keys: time-ordered for UUIDv7, the hash otherwise, and the upgrade of a version 4
/// database whose keys were all hashes.
@Suite struct EventKeyTests {
  static let millis: Int64 = 0x019a_b2c3_d4e5

  static func v7(_ millis: Int64, _ tail: Int) -> String {
    let hex = String(UInt64(millis), radix: 16)
    let stamp = String(repeating: "0", count: 12 - hex.count) + hex
    let rest = String(tail, radix: 16)
    let suffix = String(repeating: "0", count: 12 - rest.count) + rest
    return "\(stamp.prefix(8))-\(stamp.suffix(4))-7abc-8def-\(suffix)"
  }

  @Test(arguments: [
    (v7(millis, 1), true),
    (v7(millis, 1).uppercased(), true),
    ("019ab2c3-d4e5-4abc-8def-000000000001", false),  // version 4
    ("019ab2c3-d4eg-7abc-8def-000000000001", false),  // a timestamp that is not hex
    (":19ab2c3-d4e5-7abc-8def-000000000001", false),  // the bytes next to the hex digits
    ("019ab2c3-d4e@-7abc-8def-000000000001", false),
    ("019ab2c`-d4e5-7abc-8def-000000000001", false),
    ("019ab2c3-d4e5-7abc-8def-00000000000g", true),  // digits the key does not read
    ("019ab2c3d4e57abc8def000000000001", false),  // no dashes
    ("e1", false),
    ("", false),
  ])
  func aUUIDv7IsKeyedByItsMillisecondsAnyOtherIdByItsHash(id: String, timeOrdered: Bool) {
    let hash = StableHash.fnv1a64(id)
    let expected = timeOrdered ? Self.millis << 16 | (hash & 0xFFFF) : hash
    #expect(EventKey.of(id) == expected)
    #expect(EventKey.idKey(of: id) == IDKey(value: expected, isTimeOrdered: timeOrdered))
  }

  /// Keys are stored on disk, so the hash and the layout are pinned to values computed apart
  /// from this code: FNV-1a's published vectors, and a UUIDv7's key worked out by hand (its
  /// 48 bits of milliseconds, then the low 16 bits of its hash, 0x…3131).
  @Test(arguments: [
    ("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8),
  ])
  func theHashIsFNV1a64(text: String, hash: UInt64) {
    #expect(StableHash.fnv1a64(text) == Int64(bitPattern: hash))
  }

  @Test func aUUIDv7sKeyIsItsMillisecondsThenSixteenBitsOfItsHash() {
    #expect(EventKey.of("019ab2c3-d4e5-7abc-8def-000000000001") == 0x0000_019a_b2c3_d4e5_3131)
    #expect(EventKey.of("e1") == 0x088e_7b07_b539_b883)
  }

  @Test func laterUUIDv7sHaveLargerKeys() {
    let keys = (0..<50).map { EventKey.of(Self.v7(Self.millis + Int64($0), 49 - $0)) }
    #expect(keys == keys.sorted())
  }

  /// Two UUIDv7 ids of one millisecond whose 16 hash bits agree: they share a key.
  static func coincidingIDs() -> (String, String) {
    var firstByKey: [Int64: String] = [:]
    for tail in 0... {
      let id = v7(millis, tail)
      if let other = firstByKey[EventKey.of(id)] { return (other, id) }
      firstByKey[EventKey.of(id)] = id
    }
    fatalError("unreachable")
  }

  /// A version 4 file with hash keys: after the upgrade every id is found under its new key
  /// (the later of two coinciding ids at the next value) and nothing is stored twice.
  @Test func upgradingRekeysStoredEventsAndKeepsThemFindable() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v4.sqlite")
    let (first, second) = Self.coincidingIDs()
    let ids = [first, "plain-id", second, Self.v7(Self.millis + 5, 7)]
    try Self.makeVersion4(path, ids: ids)

    let database = try PullParityDatabase(path: path)
    #expect(try database.appliedMigrations().contains("0005_time_ordered_event_keys"))
    let keys = try StoredEventsTable.read(database) { db in
      try Int64.fetchAll(db, sql: "SELECT id_hash FROM events ORDER BY event_pk")
    }
    #expect(keys == [EventKey.of(first), StableHash.fnv1a64("plain-id"), EventKey.of(first) + 1, EventKey.of(ids[3])])
    try database.write { db in
      let tx = try IngestTransaction(db)
      let source = try tx.sourceID(named: "old.jsonl")
      func put(_ id: String, _ raw: String) throws -> EventStoreOutcome {
        try IngestTransactionTests().store(
          eventID: id, raw: raw, idKey: EventKey.of(id), in: tx, source: source, lookFirst: false)
      }
      for id in ids { #expect(try put(id, Self.raw(id)) == .duplicate) }
      #expect(try put(second, "other") == .conflict)
      #expect(try put(Self.v7(Self.millis, 1 << 40), "new") == .stored)
      try tx.finishBlocks()
    }
    // One key row per stored event (the keys are event_keys' rowids, unique by construction).
    #expect(try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM event_keys") } == ids.count + 1)
  }

  static func raw(_ id: String) -> String { #"{"event_id":"\#(id)"}"# }

  static func makeVersion4(_ path: String, ids: [String]) throws {
    let queue = try OldSchemaFile.create(path, version: 4)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO sources (source_id, name) VALUES (1, 'old.jsonl')")
      for (line, id) in ids.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO events (event_id, id_hash, session_id, session_ref, ts_ms, platform, app, type, source_id,
                                line, byte_offset, raw)
            VALUES (?, ?, 's1', 1, 0, 'ios', 'padel', 'pull_start', 1, ?, 0, ?)
            """, arguments: [id, StableHash.fnv1a64(id), line + 1, raw(id)])
      }
    }
  }
}
