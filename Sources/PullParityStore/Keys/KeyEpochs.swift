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
  /// Blocks of a filter of `capacity` keys: the size of the open epoch's filter, and of the
  /// closed epochs' unless overfilled.
  private let standardBlockCount: Int
  /// The epoch new keys go into.
  private(set) var open: Int64 = 1
  /// Keys in the open epoch: counted by `refresh`, then added to by `stored`.
  private var openKeys = 0
  /// Epoch 0's filter, when the file had keys before schema version 7.
  private var epochZero: KeyFilter?
  /// The epochs' filters, by size (one size unless `capacity` changed): the closed epochs',
  /// and the open epoch's as the last column of the matrix of `capacity`-sized filters, so
  /// that one row of memory tells whether an id may be in any epoch.
  private var matrices: [KeyFilterMatrix] = []
  /// The closed epochs whose filters `matrices` holds.
  private var loaded: Set<Int64> = []
  /// The epoch whose keys the open column holds, all of them: a key it does not hold is
  /// certainly not in the index, so `IngestTransaction` inserts it without looking first,
  /// and in key order. Read from the index when the open epoch or its count changed, or
  /// another connection committed since the last refresh (`PRAGMA data_version`); kept
  /// otherwise, with the keys this run stored added.
  private var openColumn: Int64?
  /// The connection and its `data_version` at the last refresh.
  private var seen: (connection: ObjectIdentifier, dataVersion: Int64)?

  /// `capacity`: keys per epoch; nil, the space's default. Tests make epochs small.
  package init(_ space: KeySpace = .events, capacity: Int? = nil) {
    self.space = space
    self.capacity = max(1, capacity ?? space.defaultCapacity)
    standardBlockCount = KeyFilter.blockCount(capacity: self.capacity)
  }

  /// Reads the filters of epochs closed since the last call, and closes the open epoch when
  /// it is full. Call in every write transaction before the first random id.
  func refresh(_ db: Database) throws {
    let now = (ObjectIdentifier(db), try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0)
    if let seen, seen != now { removeOpenColumn() }
    seen = now
    let stored = try Int64.fetchAll(db, sql: "SELECT epoch FROM \(space.filterTable) ORDER BY epoch")
    // A transaction that closed one rolled back, or a replay emptied the sessions.
    if !loaded.isSubset(of: stored) { forget() }
    let closedSince = stored.filter { !loaded.contains($0) }
    if !closedSince.isEmpty { removeOpenColumn() }
    add(try closedSince.map { ($0, try space.filter(of: $0, db)) })
    try begin(epoch: (stored.last ?? 0) + 1, db)
  }

  /// Counts `count` random ids just stored in the open epoch, and closes it when that fills it.
  func stored(_ count: Int, _ db: Database) throws {
    openKeys += count
    guard openKeys >= capacity else { return }
    // Filters of one size are checked together; only an epoch that was overfilled (by another
    // run with a larger capacity) gets one sized for what it holds.
    let size = openKeys <= capacity + capacity / 4 ? capacity : openKeys
    let filter = try space.close(db, epoch: open, filterCapacity: size)
    if openColumn == open, filter.blockCount == standardBlockCount,
      let index = matrices.firstIndex(where: { $0.blockCount == filter.blockCount })
    {
      // The open column becomes the closed epoch's, where it is.
      matrices[index].replaceLast(epoch: open, with: filter)
      (openColumn, loaded) = (nil, loaded.union([open]))
    } else {
      removeOpenColumn()
      add([(open, filter)])
    }
    try begin(epoch: open + 1, db)
  }

  /// Whether storing `count` more keys closes the open epoch (which reads its keys from the
  /// index: every key stored in it must be there first).
  func closes(afterStoring count: Int) -> Bool { openKeys + count >= capacity }

  /// Makes `epoch` the open one, closing it at once when it is already full.
  private func begin(epoch: Int64, _ db: Database) throws {
    guard epoch < Self.epochLimit else {
      throw StoreError(
        context: "keying a random id in \(space.table)", message: "all \(Self.epochLimit - 1) key epochs are used")
    }
    let count = try space.count(db, epoch: epoch)
    // A rolled-back transaction's keys leave the count below this value's.
    if openColumn != epoch || count != openKeys {
      removeOpenColumn()
      let filter = try space.keys(db, epoch: epoch, capacity: capacity).filter
      appendColumn(epoch: epoch, filter)
      openColumn = epoch
    }
    (open, openKeys) = (epoch, count)
    try stored(0, db)
  }

  /// The key to look for `hash` at first in the open epoch.
  func openKey(_ hash: Int64) -> Int64 { Self.key(hash, in: open) }

  /// Where an id of hash `hash` may be stored: whether in the open epoch (false: certainly
  /// not), and the keys to look for it at first in the closed epochs that may hold it.
  func candidates(_ hash: Int64) -> (open: Bool, closed: [Int64]) {
    var inOpen = openColumn == nil
    var keys: [Int64] = []
    if let epochZero, epochZero.mayContain(KeyFilter.probe(hash)) { keys.append(hash) }
    let probe = KeyFilter.probe(hash & Self.lowMask)
    for index in matrices.indices {
      matrices[index].forEachMayHold(probe) { epoch in
        if epoch == openColumn { inOpen = true } else { keys.append(Self.key(hash, in: epoch)) }
      }
    }
    return (inOpen, keys)
  }

  /// The keys to look for `hash` at first in the closed epochs that may hold it.
  func closedKeys(_ hash: Int64) -> [Int64] { candidates(hash).closed }

  /// Notes `key`, of the open epoch, stored (or about to be, in this transaction).
  func noteStoredInOpenEpoch(_ key: Int64) {
    guard openColumn != nil, let index = matrices.firstIndex(where: { $0.blockCount == standardBlockCount })
    else { return }
    matrices[index].insertIntoLast(KeyFilter.probe(key & Self.lowMask))
  }

  private func forget() {
    (epochZero, matrices, loaded, openColumn) = (nil, [], [], nil)
  }

  private func removeOpenColumn() {
    guard openColumn != nil else { return }
    if let index = matrices.firstIndex(where: { $0.blockCount == standardBlockCount }) { matrices[index].removeLast() }
    openColumn = nil
  }

  /// Adds closed epochs' filters.
  private func add(_ filters: [(epoch: Int64, filter: KeyFilter)]) {
    loaded.formUnion(filters.map(\.epoch))
    if let zero = filters.first(where: { $0.epoch == 0 }) { epochZero = zero.filter }
    let closed = filters.filter { $0.epoch != 0 }
    for size in Set(closed.map(\.filter.blockCount)).sorted() {
      matrix(blockCount: size) { $0.add(closed.filter { $0.filter.blockCount == size }) }
    }
  }

  /// Adds `filter` as the last column, `epoch`'s (the open one).
  private func appendColumn(epoch: Int64, _ filter: KeyFilter) {
    matrix(blockCount: filter.blockCount) { $0.add([(epoch, filter)]) }
  }

  /// Changes the matrix of filters of `blockCount` blocks, made if there is none. The open
  /// column stays last: it is removed before closed epochs are added.
  private func matrix(blockCount: Int, _ change: (inout KeyFilterMatrix) -> Void) {
    if let index = matrices.firstIndex(where: { $0.blockCount == blockCount }) {
      change(&matrices[index])
    } else {
      var matrix = KeyFilterMatrix(blockCount: blockCount)
      change(&matrix)
      matrices.append(matrix)
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
