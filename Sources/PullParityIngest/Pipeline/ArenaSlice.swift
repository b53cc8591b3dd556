/// Bytes held in a chunk's arena: where they start and how many.
package struct ArenaSlice: Sendable {
  package var start: Int
  package var count: Int

  package init(start: Int, count: Int) {
    self.start = start
    self.count = count
  }

  package func bytes(in arena: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: arena[start..<(start + count)])
  }
}
