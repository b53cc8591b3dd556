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
  /// `blocks.base[block * epochs.count + column]`. Replaced when a column is added or removed;
  /// a key inserted into a column (the open epoch's) changes it in place.
  private var blocks = HugePageBlocks(count: 0)

  package init(blockCount: Int) {
    self.blockCount = blockCount
  }

  /// Adds filters of `blockCount` blocks as the columns of their epochs. Copies every block
  /// once: a run adds the filters it finds all at once, then one per epoch it closes.
  package mutating func add(_ filters: [(epoch: Int64, filter: KeyFilter)]) {
    precondition(filters.allSatisfy { $0.filter.blockCount == blockCount }, "a filter of another size")
    let (old, width) = (epochs.count, epochs.count + filters.count)
    let grown = HugePageBlocks(count: blockCount * width)
    for block in 0..<blockCount {
      for column in 0..<old { grown.base[block * width + column] = blocks.base[block * old + column] }
      for (index, added) in filters.enumerated() {
        grown.base[block * width + old + index] = added.filter.blocks[block]
      }
    }
    blocks = grown
    epochs += filters.map(\.epoch)
  }

  /// Removes the last column (the open epoch's, read again or closed with a filter of
  /// another size).
  package mutating func removeLast() {
    let (old, width) = (epochs.count, epochs.count - 1)
    let shrunk = HugePageBlocks(count: blockCount * width)
    for block in 0..<blockCount {
      for column in 0..<width { shrunk.base[block * width + column] = blocks.base[block * old + column] }
    }
    blocks = shrunk
    epochs.removeLast()
  }

  /// Replaces the filter of the last column, and its epoch.
  package mutating func replaceLast(epoch: Int64, with filter: KeyFilter) {
    precondition(filter.blockCount == blockCount, "a filter of another size")
    let width = epochs.count
    for block in 0..<blockCount { blocks.base[block * width + width - 1] = filter.blocks[block] }
    epochs[width - 1] = epoch
  }

  /// Adds `probe` to the filter of the last column.
  package func insertIntoLast(_ probe: KeyFilter.Probe) {
    let width = epochs.count
    blocks.base[KeyFilter.block(of: probe, among: blockCount) * width + width - 1] |= KeyFilter.mask(probe)
  }

  /// Calls `body` with each epoch whose filter may hold `probe`.
  package func forEachMayHold(_ probe: KeyFilter.Probe, _ body: (Int64) -> Void) {
    guard !epochs.isEmpty else { return }
    let mask = KeyFilter.mask(probe)
    let first = KeyFilter.block(of: probe, among: blockCount) * epochs.count
    let row = blocks.base + first
    // `.==` and `all`: a vector compare; `==` on SIMD values compares lane by lane.
    for column in 0..<epochs.count where all(row[column] & mask .== mask) { body(epochs[column]) }
  }
}
