/// One physical line of an input, pointing into the reader's buffer (valid only during the
/// callback that receives it).
public struct InputLine {
  /// The line's bytes without `\n` and without a `\r` before it.
  public var bytes: UnsafeRawBufferPointer
  /// How many bytes may be read from `bytes.baseAddress` (at least `bytes.count`): the rest of
  /// the reader's buffer, which parsers that need padding use instead of copying.
  public var readableCount: Int
  /// 1-based.
  public var number: Int
  /// Offset of the line's first byte in the (decompressed) input.
  public var byteOffset: Int

  /// Empty or only `\r` (docs/events.md §9): neither an event nor a rejection.
  public var isBlank: Bool { bytes.isEmpty }
}
