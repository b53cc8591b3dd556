/// Splits an input into lines, reading it in large chunks so that no file is ever held whole
/// in memory. A line longer than the buffer grows the buffer to fit it, up to `maxLineBytes`;
/// a longer line is skipped to its end without being held, and handed out as its first
/// `keptPrefix` bytes with its full `length` (the caller quarantines it as `too_long`).
///
/// A UTF-8 byte order mark at the start of the input is skipped (the first line's offset is
/// then 3); an input that starts like UTF-16 is refused with `IngestError.utf16`.
package final class LineReader {
  /// Bytes past the last line that a padded parser may read (simdjson wants 64).
  static let padding = 64
  /// What is kept of a line longer than the limit: enough to recognise it in the quarantine.
  package static let keptPrefix = 1024
  private let source: any ByteSource
  private let name: String
  private let maxLineBytes: Int
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int

  /// State of the walk through the input, kept between buffer refills.
  private var filled = 0  // bytes in the buffer
  private var start = 0  // first byte of the current line in the buffer
  private var lineNumber = 0
  private var consumedBeforeBuffer = 0  // input offset of buffer[0]
  private var atEnd = false

  package init(
    source: any ByteSource, name: String, maxLineBytes: Int = IngestOptions.defaultMaxLineBytes,
    chunkSize: Int = 4 << 20
  ) {
    self.source = source
    self.name = name
    self.maxLineBytes = max(1, maxLineBytes)
    // No bigger than a line may be (plus one byte, to see that it ends), so that a line over
    // the limit fills it; and room for the kept prefix of a long line and more.
    self.capacity = max(2 * Self.keptPrefix, min(chunkSize, self.maxLineBytes + 1))
    self.buffer = .allocate(byteCount: capacity + Self.padding, alignment: 64)
  }

  deinit {
    buffer.deallocate()
    source.close()
  }

  /// Calls `body` with every line in order, the last one even without a final `\n`.
  package func forEachLine(_ body: (InputLine) throws -> Void) throws {
    try readFirstBytes()
    while true {
      // Hand out every complete line in the buffer.
      while let newline = memchrNewline(from: start, to: filled) {
        lineNumber += 1
        try body(line(from: start, to: newline, offset: consumedBeforeBuffer + start))
        start = newline + 1
      }
      if atEnd {
        if start < filled {
          lineNumber += 1
          try body(line(from: start, to: filled, offset: consumedBeforeBuffer + start))
        }
        return
      }
      // Keep the partial line, growing the buffer only when it alone fills it.
      let partial = filled - start
      if partial > 0, start > 0 { buffer.copyMemory(from: buffer + start, byteCount: partial) }
      consumedBeforeBuffer += start
      filled = partial
      start = 0
      if filled == capacity {
        if capacity > maxLineBytes {
          try body(skipLongLine())
          continue
        }
        grow()
      }
      try refill()
    }
  }

  /// Reads once and looks at how the input starts: skips a UTF-8 byte order mark, refuses UTF-16.
  private func readFirstBytes() throws {
    try refill()
    let head = UnsafeRawBufferPointer(start: buffer, count: filled)
    if head.starts(with: [0xEF, 0xBB, 0xBF]) {
      start = 3
    } else if let byteOrder = Self.utf16ByteOrder(head) {
      throw IngestError.utf16(path: name, byteOrder: byteOrder)
    }
  }

  /// "little-endian" or "big-endian" when the bytes start with a UTF-16 byte order mark or
  /// look like ASCII in UTF-16 (a NUL after or before every character); else nil.
  static func utf16ByteOrder(_ head: UnsafeRawBufferPointer) -> String? {
    if head.starts(with: [0xFF, 0xFE]) { return "little-endian" }
    if head.starts(with: [0xFE, 0xFF]) { return "big-endian" }
    guard head.count >= 4 else { return nil }
    if head[0] != 0, head[1] == 0, head[2] != 0, head[3] == 0 { return "little-endian" }
    if head[0] == 0, head[1] != 0, head[2] == 0, head[3] != 0 { return "big-endian" }
    return nil
  }

  private func refill() throws {
    let n = try source.read(into: buffer + filled, count: capacity - filled)
    if n == 0 { atEnd = true } else { filled += n }
  }

  /// The current line fills the whole buffer and is longer than the limit: keeps its first
  /// bytes, reads on to its end without keeping them, and returns it with its full length. The
  /// bytes after its `\n` stay in the buffer, after the kept prefix, to be read from there.
  private func skipLongLine() throws -> InputLine {
    lineNumber += 1
    let offset = consumedBeforeBuffer
    let kept = Self.keptPrefix
    var readBase = offset + filled  // input offset of buffer[kept] for the next read
    var end: Int?  // input offset of the line's end
    while end == nil {
      let n = try source.read(into: buffer + kept, count: capacity - kept)
      guard n > 0 else {
        atEnd = true
        start = kept
        filled = kept
        end = readBase
        break
      }
      if let newline = memchrNewline(from: kept, to: kept + n) {
        end = readBase + newline - kept
        start = newline + 1
        filled = kept + n
        consumedBeforeBuffer = readBase - kept
      } else {
        readBase += n
      }
    }
    return InputLine(
      bytes: UnsafeRawBufferPointer(start: buffer, count: kept), readableCount: capacity + Self.padding,
      number: lineNumber, byteOffset: offset, length: (end ?? readBase) - offset, isTooLong: true)
  }

  private func line(from start: Int, to end: Int, offset: Int) -> InputLine {
    var end = end
    if end > start, buffer.load(fromByteOffset: end - 1, as: UInt8.self) == UInt8(ascii: "\r") { end -= 1 }
    let length = end - start
    // Within the buffer but over the limit (a limit below the buffer's least size).
    let isTooLong = length > maxLineBytes
    return InputLine(
      bytes: UnsafeRawBufferPointer(start: buffer + start, count: isTooLong ? min(length, Self.keptPrefix) : length),
      readableCount: capacity + Self.padding - start,
      number: lineNumber,
      byteOffset: offset,
      length: length,
      isTooLong: isTooLong)
  }

  private func memchrNewline(from start: Int, to end: Int) -> Int? {
    guard start < end, let found = memchr(buffer + start, Int32(UInt8(ascii: "\n")), end - start) else {
      return nil
    }
    return UnsafeRawPointer(found) - UnsafeRawPointer(buffer)
  }

  private func grow() {
    let newCapacity = min(capacity * 2, maxLineBytes + 1)
    let newBuffer = UnsafeMutableRawPointer.allocate(byteCount: newCapacity + Self.padding, alignment: 64)
    newBuffer.copyMemory(from: buffer, byteCount: capacity)
    buffer.deallocate()
    buffer = newBuffer
    capacity = newCapacity
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
