import Foundation
internal import GRDB

/// Where the keys of random event ids go (any id but a UUIDv7: `EventKey.isTimeOrdered`), and
/// where an earlier copy of one may be.
///
/// A random id's hash is random, so keyed by the hash alone its insert lands anywhere in
/// `events_by_id_hash`: once that index outgrows the page cache, every transaction rewrites
/// pages across all of it. Instead the keys are kept by epoch: the open epoch's keys share
/// their top bits, so a transaction's inserts touch one region of the index, which stays
/// cached, and a closed epoch is never written again. A closed epoch has a Bloom filter
/// (`event_key_filters`); a new id is looked up in it only when the filter may hold it.
///
/// Epoch 0 is the keys stored before schema version 7, wherever they lie, each at its id's
/// full hash. An epoch closes as soon as it holds `capacity` keys, inside the transaction that
/// filled it (`stored`), so the region new keys land in never outgrows `capacity` plus one
/// group of inserts, whatever the size of a transaction.
///
/// One value serves every transaction of a run: each refreshes it (`refresh`), which reads
/// only the filters of epochs closed since and counts the open epoch's keys again, since
/// another run may have written between two of this run's transactions.
package final class KeyEpochs {
  /// Keys per epoch. The open epoch's region of the index takes about 18 bytes a key, so at
  /// 1M keys it is about half this machine's 32 MiB last-level cache: random inserts into 2M
  /// keys (35 MiB) measured about 1 s more CPU per million ids than into the first million.
  /// Smaller epochs make more filters to check and more false positives to look up (100M
  /// random ids make 100 epochs, each one filter check per new id).
  package static let defaultCapacity = 1_000_000

  let capacity: Int
  /// The epoch new keys go into.
  private(set) var open: Int64 = 1
  /// Keys in the open epoch: counted by `refresh`, then added to by `stored`.
  private var openKeys = 0
  /// Epoch 0's filter, when the file had keys before schema version 7.
  private var epochZero: KeyFilter?
  /// The closed epochs' filters, by size (one size unless `capacity` changed).
  private var matrices: [KeyFilterMatrix] = []
  private var loaded: Set<Int64> = []

  /// `capacity`: keys per epoch; nil, the default. Tests make epochs small.
  package init(capacity: Int? = nil) {
    self.capacity = max(1, capacity ?? Self.defaultCapacity)
  }

  /// Reads the filters of epochs closed since the last call, and closes the open epoch when
  /// it is full. Call in every write transaction before the first random id.
  func refresh(_ db: Database) throws {
    let stored = try Int64.fetchAll(db, sql: "SELECT epoch FROM event_key_filters ORDER BY epoch")
    if !loaded.isSubset(of: stored) { forget() }  // a transaction that closed one rolled back
    add(try stored.filter { !loaded.contains($0) }.map { ($0, try Self.filter(of: $0, db)) })
    try begin(epoch: (stored.last ?? 0) + 1, db)
  }

  /// Counts `count` random ids just stored in the open epoch, and closes it when that fills it.
  func stored(_ count: Int, _ db: Database) throws {
    openKeys += count
    guard openKeys >= capacity else { return }
    // Filters of one size are checked together; only an epoch that was overfilled (by another
    // run with a larger capacity) gets one sized for what it holds.
    let size = openKeys <= capacity + capacity / 4 ? capacity : openKeys
    add([(open, try Self.close(db, epoch: open, filterCapacity: size))])
    try begin(epoch: open + 1, db)
  }

  /// Makes `epoch` the open one, closing it at once when it is already full.
  private func begin(epoch: Int64, _ db: Database) throws {
    guard epoch < Self.epochLimit else {
      throw StoreError(context: "keying a random event id", message: "all \(Self.epochLimit - 1) key epochs are used")
    }
    (open, openKeys) = (epoch, try Self.count(db, epoch: epoch))
    try stored(0, db)
  }

  /// The key to look for `hash` at first in the open epoch.
  func openKey(_ hash: Int64) -> Int64 { Self.key(hash, in: open) }

  /// The keys to look for `hash` at first in the closed epochs that may hold it.
  func closedKeys(_ hash: Int64) -> [Int64] {
    var keys: [Int64] = []
    if let epochZero, epochZero.mayContain(KeyFilter.probe(hash)) { keys.append(hash) }
    let probe = KeyFilter.probe(hash & Self.lowMask)
    for matrix in matrices {
      matrix.forEachMayHold(probe) { keys.append(Self.key(hash, in: $0)) }
    }
    return keys
  }

  private func forget() {
    (epochZero, matrices, loaded) = (nil, [], [])
  }

  private func add(_ filters: [(epoch: Int64, filter: KeyFilter)]) {
    loaded.formUnion(filters.map(\.epoch))
    if let zero = filters.first(where: { $0.epoch == 0 }) { epochZero = zero.filter }
    let closed = filters.filter { $0.epoch != 0 }
    for size in Set(closed.map(\.filter.blockCount)).sorted() {
      let added = closed.filter { $0.filter.blockCount == size }
      if let index = matrices.firstIndex(where: { $0.blockCount == size }) {
        matrices[index].add(added)
      } else {
        var matrix = KeyFilterMatrix(blockCount: size)
        matrix.add(added)
        matrices.append(matrix)
      }
    }
  }

  private static func filter(of epoch: Int64, _ db: Database) throws -> KeyFilter {
    let bytes = try Data.fetchOne(db, sql: "SELECT filter FROM event_key_filters WHERE epoch = ?", arguments: [epoch])
    guard let bytes, let filter = KeyFilter(bytes: [UInt8](bytes)) else {
      throw StoreError(
        context: "reading key epoch \(epoch)",
        message: "event_key_filters.filter is not a filter (\(bytes?.count ?? 0) bytes)")
    }
    return filter
  }

  /// Bits of the hash kept in a key; the bits above are the epoch.
  static let lowBits = 44
  static let lowMask = (Int64(1) << lowBits) - 1
  /// Epochs start at Int64.min and stay below 0, out of the way of UUIDv7 keys (time first).
  static let epochLimit = Int64(1) << (63 - lowBits)

  static func key(_ hash: Int64, in epoch: Int64) -> Int64 {
    epoch == 0 ? hash : (Int64.min + (epoch << lowBits)) | (hash & lowMask)
  }

  private static func count(_ db: Database, epoch: Int64) throws -> Int {
    let sql = "SELECT count(*) FROM events WHERE id_hash BETWEEN ? AND ?"
    return try Int.fetchOne(db, sql: sql, arguments: [key(0, in: epoch), key(lowMask, in: epoch)]) ?? 0
  }

  /// Builds the filter of `epoch` from its keys in the index, and stores it. Epochs closed
  /// with one capacity get filters of one size, which `KeyFilterMatrix` checks together.
  private static func close(_ db: Database, epoch: Int64, filterCapacity: Int) throws -> KeyFilter {
    let (first, last) = (key(0, in: epoch), key(lowMask, in: epoch))
    return try fill(db, epoch: epoch, from: first, through: last, capacity: filterCapacity) { $0 & lowMask }
  }

  /// The schema version that introduced key epochs: applying it fills epoch 0.
  static let migrationName = "0007_key_epochs"

  /// Fills epoch 0's filter with every key stored (schema version 7's migration).
  static func fillEpochZero(_ db: Database) throws {
    let keys = try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0
    _ = try fill(db, epoch: 0, from: .min, through: .max, capacity: keys) { $0 }
  }

  /// The filter of the keys stored in `first...last`, as `probed` turns them into what a
  /// lookup probes, saved as `epoch`'s with their count; none is saved when there are no keys.
  /// `capacity`: the filter's size in keys.
  private static func fill(
    _ db: Database, epoch: Int64, from first: Int64, through last: Int64, capacity: Int,
    probed: (Int64) -> Int64
  ) throws -> KeyFilter {
    var filter = KeyFilter(capacity: capacity)
    let select = try RawStatement(db, "SELECT id_hash FROM events WHERE id_hash BETWEEN ? AND ? ORDER BY id_hash")
    select.bind(1, first)
    select.bind(2, last)
    let column = select.column("id_hash")
    var keys = 0
    try select.forEachRow("reading the keys of key epoch \(epoch)") {
      filter.insert(KeyFilter.probe(probed($0.int64(column))))
      keys += 1
    }
    if keys > 0 { try save(filter, keys: keys, epoch: epoch, db) }
    return filter
  }

  private static func save(_ filter: KeyFilter, keys: Int, epoch: Int64, _ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO event_key_filters (epoch, keys, filter) VALUES (?, ?, ?)",
      arguments: [epoch, keys, Data(filter.bytes)])
  }
}
