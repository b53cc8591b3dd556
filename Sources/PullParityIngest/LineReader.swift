/// Splits an input into lines, reading it in large chunks so that no file is ever held whole
/// in memory. A line longer than the buffer grows the buffer to fit it (and no more).
final class LineReader {
  /// Bytes past the last line that a padded parser may read (simdjson wants 64).
  static let padding = 64
  private let source: any ByteSource
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int

  init(source: any ByteSource, chunkSize: Int = 4 << 20) {
    self.source = source
    self.capacity = chunkSize
    self.buffer = .allocate(byteCount: chunkSize + Self.padding, alignment: 64)
  }

  deinit {
    buffer.deallocate()
    source.close()
  }

  /// Calls `body` with every line in order, the last one even without a final `\n`.
  func forEachLine(_ body: (InputLine) throws -> Void) throws {
    var filled = 0  // bytes in the buffer
    var start = 0  // first byte of the current line in the buffer
    var lineNumber = 0
    var consumedBeforeBuffer = 0  // input offset of buffer[0]
    var atEnd = false

    while true {
      // Hand out every complete line in the buffer.
      while let newline = memchrNewline(from: start, to: filled) {
        lineNumber += 1
        try body(line(from: start, to: newline, number: lineNumber, offset: consumedBeforeBuffer + start))
        start = newline + 1
      }
      if atEnd {
        if start < filled {
          lineNumber += 1
          try body(line(from: start, to: filled, number: lineNumber, offset: consumedBeforeBuffer + start))
        }
        return
      }
      // Keep the partial line, growing the buffer only when it alone fills it.
      let partial = filled - start
      if partial > 0, start > 0 { buffer.copyMemory(from: buffer + start, byteCount: partial) }
      consumedBeforeBuffer += start
      filled = partial
      start = 0
      if filled == capacity { grow() }
      let n = try source.read(into: buffer + filled, count: capacity - filled)
      if n == 0 { atEnd = true } else { filled += n }
    }
  }

  private func line(from start: Int, to end: Int, number: Int, offset: Int) -> InputLine {
    var end = end
    if end > start, buffer.load(fromByteOffset: end - 1, as: UInt8.self) == UInt8(ascii: "\r") { end -= 1 }
    return InputLine(
      bytes: UnsafeRawBufferPointer(start: buffer + start, count: end - start),
      readableCount: capacity + Self.padding - start,
      number: number,
      byteOffset: offset)
  }

  private func memchrNewline(from start: Int, to end: Int) -> Int? {
    guard start < end, let found = memchr(buffer + start, Int32(UInt8(ascii: "\n")), end - start) else {
      return nil
    }
    return UnsafeRawPointer(found) - UnsafeRawPointer(buffer)
  }

  private func grow() {
    let newCapacity = capacity * 2
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
