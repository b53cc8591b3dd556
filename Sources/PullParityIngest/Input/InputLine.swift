/// One physical line of an input, pointing into the reader's buffer (valid only during the
/// callback that receives it).
package struct InputLine {
  /// The line's bytes without `\n` and without a `\r` before it; for a line over the length
  /// limit, only its first bytes.
  package var bytes: UnsafeRawBufferPointer
  /// How many bytes may be read from `bytes.baseAddress` (at least `bytes.count`): the rest of
  /// the reader's buffer, which parsers that need padding use instead of copying.
  package var readableCount: Int
  /// 1-based.
  package var number: Int
  /// Offset of the line's first byte in the (decompressed) input.
  package var byteOffset: Int
  /// The line's whole length in bytes (more than `bytes.count` when it is too long).
  package var length: Int
  /// Longer than the ingest's `maxLineBytes`: not parsed, quarantined as `too_long`.
  package var isTooLong: Bool

  package init(
    bytes: UnsafeRawBufferPointer, readableCount: Int, number: Int, byteOffset: Int, length: Int? = nil,
    isTooLong: Bool = false
  ) {
    self.bytes = bytes
    self.readableCount = readableCount
    self.number = number
    self.byteOffset = byteOffset
    self.length = length ?? bytes.count
    self.isTooLong = isTooLong
  }

  /// Empty or only `\r` (docs/events.md §9): neither an event nor a rejection.
  package var isBlank: Bool { length == 0 }
}
