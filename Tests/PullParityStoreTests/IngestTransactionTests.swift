import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// The duplicate check at the level of the store: duplicates, conflicts, and ids whose hashes
/// collide (forced here, since real 64-bit collisions are too rare to meet in a test).
@Suite struct IngestTransactionTests {
  func store(
    eventID: String, raw: String, idHash: Int64, in tx: IngestTransaction, source: Int64, lookFirst: Bool
  ) throws -> EventStoreOutcome {
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
                return try tx.store(fields, idHash: idHash, lookFirst: lookFirst)
              }
            }
          }
        }
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
        try store(eventID: id, raw: raw, idHash: 7, in: tx, source: source, lookFirst: lookFirst)
      }
      #expect(try put("a", #"{"event_id":"a"}"#) == .stored)
      #expect(try put("b", #"{"event_id":"b"}"#) == .stored)
      #expect(try put("b", #"{"event_id":"b"}"#) == .duplicate)
      #expect(try put("b", #"{"event_id":"b","x":1}"#) == .conflict)
      #expect(try put("a", #"{"event_id":"a"}"#) == .duplicate)
      let rows = try Row.fetchAll(db, sql: "SELECT event_id, id_hash FROM events ORDER BY event_pk").map {
        "\($0[0] as String):\($0[1] as Int64)"
      }
      #expect(rows == ["a:7", "b:8"])
    }
  }
}
