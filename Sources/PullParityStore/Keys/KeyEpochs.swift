internal import GRDB

/// Where the keys of random ids go (any id but a UUIDv7: `EventKey.isTimeOrdered`) in one key
/// space (events or sessions), and where an earlier copy of one may be.
///
/// A random id's hash is random, so keyed by the hash alone its insert lands anywhere in the
/// space's index: once that index outgrows the page cache, every transaction rewrites pages
/// across all of it. Instead the keys are kept by epoch: the open epoch's keys share their top
/// bits, so a transaction's inserts touch one region of the index, which stays cached, and a
/// closed epoch is never written again. A closed epoch has a Bloom filter (a row of the
/// space's filter table); a new id is looked up in it only when the filter may hold it.
///
/// Epoch 0 is the keys stored before the space's epochs existed (schema version 7 for events,
/// 8 for sessions), wherever they lie, each at its id's full hash. An epoch closes as soon as
/// it holds `capacity` keys, inside the transaction that filled it (`stored`), so the region
/// new keys land in never outgrows `capacity` plus one group of inserts, whatever the size of
/// a transaction.
///
/// One value serves every transaction of a run: each refreshes it (`refresh`), which reads
/// only the filters of epochs closed since and counts the open epoch's keys again, since
/// another run may have written between two of this run's transactions.
package final class KeyEpochs {
  let space: KeySpace
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

  /// `capacity`: keys per epoch; nil, the space's default. Tests make epochs small.
  package init(_ space: KeySpace = .events, capacity: Int? = nil) {
    self.space = space
    self.capacity = max(1, capacity ?? space.defaultCapacity)
  }

  /// Reads the filters of epochs closed since the last call, and closes the open epoch when
  /// it is full. Call in every write transaction before the first random id.
  func refresh(_ db: Database) throws {
    let stored = try Int64.fetchAll(db, sql: "SELECT epoch FROM \(space.filterTable) ORDER BY epoch")
    // A transaction that closed one rolled back, or a replay emptied the sessions.
    if !loaded.isSubset(of: stored) { forget() }
    add(try stored.filter { !loaded.contains($0) }.map { ($0, try space.filter(of: $0, db)) })
    try begin(epoch: (stored.last ?? 0) + 1, db)
  }

  /// Counts `count` random ids just stored in the open epoch, and closes it when that fills it.
  func stored(_ count: Int, _ db: Database) throws {
    openKeys += count
    guard openKeys >= capacity else { return }
    // Filters of one size are checked together; only an epoch that was overfilled (by another
    // run with a larger capacity) gets one sized for what it holds.
    let size = openKeys <= capacity + capacity / 4 ? capacity : openKeys
    add([(open, try space.close(db, epoch: open, filterCapacity: size))])
    try begin(epoch: open + 1, db)
  }

  /// Makes `epoch` the open one, closing it at once when it is already full.
  private func begin(epoch: Int64, _ db: Database) throws {
    guard epoch < Self.epochLimit else {
      throw StoreError(
        context: "keying a random id in \(space.table)", message: "all \(Self.epochLimit - 1) key epochs are used")
    }
    (open, openKeys) = (epoch, try space.count(db, epoch: epoch))
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

  /// Bits of the hash kept in a key; the bits above are the epoch.
  static let lowBits = 44
  static let lowMask = (Int64(1) << lowBits) - 1
  /// Epochs start at Int64.min and stay below 0, out of the way of UUIDv7 keys (time first).
  static let epochLimit = Int64(1) << (63 - lowBits)

  static func key(_ hash: Int64, in epoch: Int64) -> Int64 {
    epoch == 0 ? hash : (Int64.min + (epoch << lowBits)) | (hash & lowMask)
  }
}
