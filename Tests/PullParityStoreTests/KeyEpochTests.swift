import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Random ids are keyed in the open key epoch; an epoch closes (its keys go into a filter) as
/// soon as it is full, in the transaction that filled it, and an id stored in any epoch is
/// still found: as a duplicate with the same bytes, a conflict with others. Epochs of 3 keys
/// here, so that a few ids fill them.
@Suite struct KeyEpochTests {
  static let capacity = 3

  /// Where `id` (random) is keyed when stored in `epoch` without a collision.
  static func key(_ id: String, epoch: Int64) -> Int64 {
    Int64.min + epoch << 44 | StableHash.fnv1a64(id) & (1 << 44 - 1)
  }

  static func raw(_ id: String) -> String { #"{"event_id":"\#(id)"}"# }

  /// One transaction: stores each (id, raw) one by one; returns the outcomes.
  /// `epochs`: the run's, kept across its transactions; nil, new ones.
  func transaction(
    _ database: PullParityDatabase, _ puts: [(String, String)], lookFirst: Bool = false, epochs: KeyEpochs? = nil
  ) throws -> [EventStoreOutcome] {
    try database.write { db in
      let tx = try IngestTransaction(db, keyEpochs: epochs ?? KeyEpochs(capacity: Self.capacity))
      let source = try tx.sourceID(named: "test.jsonl")
      let outcomes = try puts.map { id, raw in
        try IngestTransactionTests().store(
          eventID: id, raw: raw, idKey: EventKey.of(id), in: tx, source: source, lookFirst: lookFirst)
      }
      try tx.finishBlocks()
      return outcomes
    }
  }

  func keys(_ database: PullParityDatabase) throws -> [String: Int64] {
    try StoredEventsTable.read(database) { db in
      try Dictionary(
        uniquePairs: try Row.fetchAll(db, sql: "SELECT event_id, id_hash FROM events").map {
          ($0["event_id"] as String, $0["id_hash"] as Int64)
        })
    }
  }

  func filters(_ database: PullParityDatabase) throws -> [String] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT epoch, keys FROM event_key_filters ORDER BY epoch").map {
        "\($0["epoch"] as Int64):\($0["keys"] as Int)"
      }
    }
  }

  @Test(arguments: [false, true])
  func aFullEpochClosesAndItsIdsStayFindable(lookFirst: Bool) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("epochs.sqlite"))
    let first = ["r1", "r2", "r3", "r4"].map { ($0, Self.raw($0)) }
    #expect(try transaction(database, first, lookFirst: lookFirst) == [.stored, .stored, .stored, .stored])
    // r3 filled epoch 1, which closed at once: r4 went into epoch 2.
    var expected = ["r1": Self.key("r1", epoch: 1), "r2": Self.key("r2", epoch: 1), "r3": Self.key("r3", epoch: 1)]
    expected["r4"] = Self.key("r4", epoch: 2)
    #expect(try keys(database) == expected)
    #expect(try filters(database) == ["1:3"])

    let v7 = EventKeyTests.v7(EventKeyTests.millis, 1)
    let second = [("r1", Self.raw("r1")), ("r2", "other bytes"), ("r5", Self.raw("r5")), (v7, Self.raw(v7))]
    #expect(try transaction(database, second, lookFirst: lookFirst) == [.duplicate, .conflict, .stored, .stored])
    #expect(try filters(database) == ["1:3"])
    expected["r5"] = Self.key("r5", epoch: 2)
    expected[v7] = EventKey.of(v7)  // a UUIDv7 keeps its time key, and does not count in an epoch
    #expect(try keys(database) == expected)

    // r6 fills epoch 2 (r4, r5, r6); r5 is then found in it, closed, and r7 opens epoch 3.
    let third = [("r6", Self.raw("r6")), ("r5", Self.raw("r5")), ("r7", Self.raw("r7"))]
    #expect(try transaction(database, third, lookFirst: lookFirst) == [.stored, .duplicate, .stored])
    #expect(try filters(database) == ["1:3", "2:3"])

    let fourth = [("r3", Self.raw("r3")), ("r6", Self.raw("r6")), ("r8", Self.raw("r8")), ("r7", "changed")]
    #expect(try transaction(database, fourth, lookFirst: lookFirst) == [.duplicate, .duplicate, .stored, .conflict])
    #expect(try filters(database) == ["1:3", "2:3"])
    expected["r6"] = Self.key("r6", epoch: 2)
    expected["r7"] = Self.key("r7", epoch: 3)
    expected["r8"] = Self.key("r8", epoch: 3)
    #expect(try keys(database) == expected)
  }

  /// Two runs writing one file by turns (two processes, each with the filters it read): each
  /// transaction sees the epochs the other closed and counts the keys the other added to the
  /// open one, and neither stores an id twice.
  @Test func runsThatTakeTurnsSeeEachOthersEpochs() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("turns.sqlite"))
    let (a, b) = (KeyEpochs(capacity: Self.capacity), KeyEpochs(capacity: Self.capacity))
    let first = ["r1", "r2"].map { ($0, Self.raw($0)) }
    #expect(try transaction(database, first, epochs: a) == [.stored, .stored])
    // B's r3 fills epoch 1 and B closes it; A, whose filters predate that, must look there.
    #expect(try transaction(database, [("r3", Self.raw("r3"))], epochs: b) == [.stored])
    #expect(try filters(database) == ["1:3"])
    #expect(
      try transaction(database, [("r1", Self.raw("r1")), ("r4", Self.raw("r4"))], epochs: a) == [.duplicate, .stored])
    #expect(try transaction(database, [("r5", Self.raw("r5"))], epochs: a) == [.stored])
    // B counts the two keys A put into epoch 2: its r6 fills it, and B closes it.
    let last = [("r6", Self.raw("r6")), ("r5", "changed"), ("r2", Self.raw("r2"))]
    #expect(try transaction(database, last, epochs: b) == [.stored, .conflict, .duplicate])
    #expect(try filters(database) == ["1:3", "2:3"])
    #expect(try keys(database)["r6"] == Self.key("r6", epoch: 2))
    #expect(try keys(database)["r4"] == Self.key("r4", epoch: 2))
  }

  /// A run keeps the open epoch's filter across its transactions and stores a key its filter
  /// lacks without looking first. Its rolled-back transaction left the filter with three keys
  /// the file lacks; another connection then committed three others to the same epoch: the
  /// count is the run's again, and only the file's change counter (`data_version`) tells it
  /// to read the filter again. Kept, the filter would call those ids new.
  @Test func aRunReadsTheOpenEpochAgainAfterAnotherConnectionWroteIt() throws {
    struct RolledBack: Error {}
    let dir = try TemporaryDirectory()
    let path = dir.path("two-connections.sqlite")
    let (run, other) = (try PullParityDatabase(path: path), try PullParityDatabase(path: path))
    let epochs = KeyEpochs(capacity: 10)
    #expect(try transaction(run, [("seed", Self.raw("seed"))], epochs: epochs) == [.stored])
    #expect(throws: RolledBack.self) {
      try run.write { db in
        let tx = try IngestTransaction(db, keyEpochs: epochs)
        let source = try tx.sourceID(named: "test.jsonl")
        for id in ["x1", "x2", "x3"] {
          _ = try IngestTransactionTests().store(
            eventID: id, raw: Self.raw(id), idKey: EventKey.of(id), in: tx, source: source, lookFirst: false)
        }
        try tx.finishBlocks()
        throw RolledBack()
      }
    }
    let others = ["o1", "o2", "o3"].map { ($0, Self.raw($0)) }
    #expect(try transaction(other, others, epochs: KeyEpochs(capacity: 10)) == [.stored, .stored, .stored])
    let again = others + [("o2", "changed"), ("x1", Self.raw("x1"))]
    #expect(try transaction(run, again, epochs: epochs) == [.duplicate, .duplicate, .duplicate, .conflict, .stored])
    #expect(try keys(run).keys.sorted() == ["o1", "o2", "o3", "seed", "x1"])
  }

  /// A new id's key waits to be inserted with the others in key order, by statements of
  /// `keysPerInsert` rows and one row for the rest. A key found taken then (the open epoch's
  /// filter missed a row: here one written behind the transaction's back) stops the transaction
  /// with an error naming that key, whichever statement meets it; no line is stored without
  /// its key.
  @Test(arguments: [(ids: 3, taken: 1), (ids: 250, taken: 0), (ids: 250, taken: 123), (ids: 250, taken: 249)])
  func aPendingKeyFoundTakenIsAnError(ids: Int, taken: Int) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("taken.sqlite"))
    let names = (0..<ids).map { "id-\($0)" }
    let sortedKeys = names.map { Self.key($0, epoch: 1) }.sorted()
    let error = #expect(throws: StoreError.self) {
      try database.write { db in
        let tx = try IngestTransaction(db, keyEpochs: KeyEpochs(capacity: 1_000))
        let source = try tx.sourceID(named: "test.jsonl")
        for name in names {
          let outcome = try IngestTransactionTests().store(
            eventID: name, raw: Self.raw(name), idKey: EventKey.of(name), in: tx, source: source, lookFirst: false)
          #expect(outcome == .stored)
        }
        try db.execute(sql: "INSERT INTO event_keys VALUES (?, 0, 0)", arguments: [sortedKeys[taken]])
        try tx.finishBlocks()
      }
    }
    #expect(error?.message == "key \(sortedKeys[taken]) is taken, though the open key epoch's filter did not hold it")
    #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event_keys") } == 0)
  }

  /// Stores (ids, raws) with the given keys one after another in one transaction.
  func group(_ database: PullParityDatabase, _ rows: [(String, String)], keys: [Int64]) throws -> [EventStoreOutcome] {
    try database.write { db in
      let tx = try IngestTransaction(db, keyEpochs: KeyEpochs(capacity: Self.capacity))
      let source = try tx.sourceID(named: "test.jsonl")
      let outcomes = try IngestTransactionTests().storeAll(rows, idKeys: keys, in: tx, source: source)
      try tx.finishBlocks()
      return outcomes
    }
  }

  /// Copies of ids of a closed epoch among new ids are found there; the new ids land in the
  /// open epochs, each closing as soon as it is full.
  @Test func copiesInClosedEpochsAreFoundAmongNewIds() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("group.sqlite"))
    let old = ["r1", "r2", "r3"].map { ($0, Self.raw($0)) }
    _ = try transaction(database, old)
    let rows = [
      ("n1", Self.raw("n1")), ("r1", Self.raw("r1")), ("n2", Self.raw("n2")), ("r2", "other"),
      ("n3", Self.raw("n3")), ("n4", Self.raw("n4")), ("n5", Self.raw("n5")), ("n6", Self.raw("n6")),
    ]
    let results = try group(database, rows, keys: rows.map { EventKey.of($0.0) })
    #expect(results == [.stored, .duplicate, .stored, .conflict, .stored, .stored, .stored, .stored])
    // Six new keys in epochs of three: epochs 2 and 3 are full and closed.
    #expect(try filters(database) == ["1:3", "2:3", "3:3"])
    let keys = try keys(database)
    for (index, id) in ["n1", "n2", "n3", "n4", "n5", "n6"].enumerated() {
      #expect(keys[id] == Self.key(id, epoch: Int64(2 + index / 3)), "\(id)")
    }
  }

  /// Two ids of one group whose hashes differ only above the bits an epoch keeps share a
  /// first key: both are stored, the second at the next value.
  @Test func idsWhoseKeysCoincideInAnEpochAreBothStored() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("coincide.sqlite"))
    let rows = (1...8).map { ("c\($0)", Self.raw("c\($0)")) }
    let hashes: [Int64] = [5, 5 | 1 << 50, 9, 10, 11, 12, 13, 14]
    let results = try group(database, rows, keys: hashes)
    #expect(results == Array(repeating: .stored, count: 8))
    let keys = try keys(database)
    let epochOne = Int64.min + 1 << 44
    #expect(keys["c1"] == epochOne + 5 && keys["c2"] == epochOne + 6 && keys["c3"] == epochOne + 9)
    // Both found again.
    #expect(try group(database, rows, keys: hashes) == Array(repeating: .duplicate, count: 8))
  }
}
