/// Bytes held in a chunk's arena: where they start and how many.
struct ArenaSlice: Sendable {
  var start: Int
  var count: Int

  func bytes(in arena: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: arena[start..<(start + count)])
  }
}
