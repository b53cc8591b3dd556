import Foundation
internal import GRDB

/// A key space's epochs in the file: their keys in the index, their filters in the filter table.
extension KeySpace {
  func filter(of epoch: Int64, _ db: Database) throws -> KeyFilter {
    let bytes = try Data.fetchOne(db, sql: "SELECT filter FROM \(filterTable) WHERE epoch = ?", arguments: [epoch])
    guard let bytes, let filter = KeyFilter(bytes: [UInt8](bytes)) else {
      throw StoreError(
        context: "reading key epoch \(epoch) of \(table)",
        message: "\(filterTable).filter is not a filter (\(bytes?.count ?? 0) bytes)")
    }
    return filter
  }

  /// Keys stored in `epoch`'s region of the index.
  func count(_ db: Database, epoch: Int64) throws -> Int {
    let sql = "SELECT count(*) FROM \(table) WHERE \(keyColumn) BETWEEN ? AND ?"
    let region = Self.region(of: epoch)
    return try Int.fetchOne(db, sql: sql, arguments: [region.first, region.last]) ?? 0
  }

  /// The filter of the keys in `epoch`'s region of the index, as `close` builds it but not
  /// saved, and how many there are: what the open epoch holds.
  func keys(_ db: Database, epoch: Int64, capacity: Int) throws -> (filter: KeyFilter, count: Int) {
    let region = Self.region(of: epoch)
    return try filter(db, epoch: epoch, from: region.first, through: region.last, capacity: capacity) {
      $0 & KeyEpochs.lowMask
    }
  }

  /// Builds the filter of `epoch` from its keys in the index, and stores it. Epochs closed
  /// with one capacity get filters of one size, which `KeyFilterMatrix` checks together.
  func close(_ db: Database, epoch: Int64, filterCapacity: Int) throws -> KeyFilter {
    let region = Self.region(of: epoch)
    return try fill(db, epoch: epoch, from: region.first, through: region.last, capacity: filterCapacity) {
      $0 & KeyEpochs.lowMask
    }
  }

  /// The lowest and highest key of `epoch` (above 0).
  private static func region(of epoch: Int64) -> (first: Int64, last: Int64) {
    (KeyEpochs.key(0, in: epoch), KeyEpochs.key(KeyEpochs.lowMask, in: epoch))
  }

  /// Fills epoch 0's filter with every key stored (the migration named `migrationName`).
  func fillEpochZero(_ db: Database) throws {
    let keys = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
    _ = try fill(db, epoch: 0, from: .min, through: .max, capacity: keys) { $0 }
  }

  /// The filter of the keys stored in `first...last`, as `probed` turns them into what a
  /// lookup probes, saved as `epoch`'s with their count; none is saved when there are no keys.
  /// `capacity`: the filter's size in keys.
  private func fill(
    _ db: Database, epoch: Int64, from first: Int64, through last: Int64, capacity: Int,
    probed: (Int64) -> Int64
  ) throws -> KeyFilter {
    let (filter, keys) = try filter(db, epoch: epoch, from: first, through: last, capacity: capacity, probed: probed)
    if keys > 0 { try save(filter, keys: keys, epoch: epoch, db) }
    return filter
  }

  /// The filter of the keys stored in `first...last`, as `probed` turns them, and their count.
  private func filter(
    _ db: Database, epoch: Int64, from first: Int64, through last: Int64, capacity: Int,
    probed: (Int64) -> Int64
  ) throws -> (filter: KeyFilter, count: Int) {
    var filter = KeyFilter(capacity: capacity)
    let select = try RawStatement(
      db, "SELECT \(keyColumn) FROM \(table) WHERE \(keyColumn) BETWEEN ? AND ? ORDER BY \(keyColumn)")
    select.bind(1, first)
    select.bind(2, last)
    let column = select.column(keyColumn)
    var keys = 0
    try select.forEachRow("reading the keys of key epoch \(epoch) of \(table)") {
      filter.insert(KeyFilter.probe(probed($0.int64(column))))
      keys += 1
    }
    return (filter, keys)
  }

  private func save(_ filter: KeyFilter, keys: Int, epoch: Int64, _ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO \(filterTable) (epoch, keys, filter) VALUES (?, ?, ?)",
      arguments: [epoch, keys, Data(filter.bytes)])
  }
}
