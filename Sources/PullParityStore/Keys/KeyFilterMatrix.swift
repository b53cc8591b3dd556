/// Filters of one size, laid out block by block: block b of every filter side by side. The
/// key epochs' filters (the closed ones', and the open one's as the last column) are all probed
/// with the same key (the hash's low bits) at the same block, so one key is checked against
/// every epoch in one contiguous run of memory
/// instead of one cache miss (and one TLB miss) per epoch, which measured 0.7 s per million
/// random ids against five epochs when the filters lay apart.
package struct KeyFilterMatrix {
  package let blockCount: Int
  /// Column → epoch, in the order filters were added.
  private(set) var epochs: [Int64] = []
  /// Columns a row has room for: a row is `stride` blocks long, so that the open epoch's column
  /// and the epochs a run closes (each one column more) are added in place. Re-laying out the
  /// whole matrix per closed epoch had the kernel zero a fresh matrix each time: 0.17 s of a
  /// day into five days.
  private var stride = 0
  /// `blocks.base[block * stride + column]`. A key inserted into a column (the open epoch's)
  /// changes it in place.
  private var blocks = HugePageBlocks(count: 0)

  package init(blockCount: Int) {
    self.blockCount = blockCount
  }

  /// Adds filters of `blockCount` blocks as the columns of their epochs, after the others.
  package mutating func add(_ filters: [(epoch: Int64, filter: KeyFilter)]) {
    precondition(filters.allSatisfy { $0.filter.blockCount == blockCount }, "a filter of another size")
    let (old, width) = (epochs.count, epochs.count + filters.count)
    // Half as many columns again as it then holds: the closed epochs' filters read at a run's
    // start are followed at once by the open epoch's column, and then by those the run closes.
    if width > stride { grow(to: max(width + width / 2, 4)) }
    for block in 0..<blockCount {
      for (index, added) in filters.enumerated() {
        blocks.base[block * stride + old + index] = added.filter.blocks[block]
      }
    }
    epochs += filters.map(\.epoch)
  }

  /// Makes rows `columns` blocks long, copying the columns there are.
  private mutating func grow(to columns: Int) {
    let grown = HugePageBlocks(count: blockCount * columns)
    for block in 0..<blockCount {
      for column in epochs.indices { grown.base[block * columns + column] = blocks.base[block * stride + column] }
    }
    (blocks, stride) = (grown, columns)
  }

  /// Removes the last column (the open epoch's, read again or closed with a filter of
  /// another size); `add` writes every block of a column it fills.
  package mutating func removeLast() {
    epochs.removeLast()
  }

  /// Replaces the filter of the last column, and its epoch.
  package mutating func replaceLast(epoch: Int64, with filter: KeyFilter) {
    precondition(filter.blockCount == blockCount, "a filter of another size")
    let last = epochs.count - 1
    for block in 0..<blockCount { blocks.base[block * stride + last] = filter.blocks[block] }
    epochs[last] = epoch
  }

  /// Adds `probe` to the filter of the last column.
  package func insertIntoLast(_ probe: KeyFilter.Probe) {
    blocks.base[KeyFilter.block(of: probe, among: blockCount) * stride + epochs.count - 1] |= KeyFilter.mask(probe)
  }

  /// Calls `body` with each epoch whose filter may hold `probe`.
  package func forEachMayHold(_ probe: KeyFilter.Probe, _ body: (Int64) -> Void) {
    guard !epochs.isEmpty else { return }
    let mask = KeyFilter.mask(probe)
    let row = blocks.base + KeyFilter.block(of: probe, among: blockCount) * stride
    // `.==` and `all`: a vector compare; `==` on SIMD values compares lane by lane.
    for column in 0..<epochs.count where all(row[column] & mask .== mask) { body(epochs[column]) }
  }
}
