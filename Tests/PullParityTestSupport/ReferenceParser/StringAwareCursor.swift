/// One walk over a JSON line that knows where its strings are: the bookkeeping both of
/// `FoundationLineParser`'s byte passes need, kept in one place so they cannot disagree on
/// what is inside a string.
///
/// A piece is one byte, or inside a string an escape (the backslash and the byte after it)
/// whole, so that an escaped quote never ends the string. The quotes that open and close a
/// string are pieces outside it. Nothing is validated: the passes run on lines
/// JSONSerialization read or is about to read.
struct StringAwareCursor {
  let bytes: UnsafeRawBufferPointer
  private(set) var index = 0
  private var inString = false

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// The next piece's bytes, and whether they are a string's content.
  mutating func next() -> (range: Range<Int>, inString: Bool)? {
    guard index < bytes.count else { return nil }
    let start = index
    let byte = bytes[index]
    index += 1
    let isQuote = byte == UInt8(ascii: "\"")
    if inString {
      if byte == UInt8(ascii: "\\") {
        index = min(index + 1, bytes.count)
      } else if isQuote {
        inString = false
        return (start..<index, false)
      }
      return (start..<index, true)
    }
    if isQuote { inString = true }
    return (start..<index, false)
  }

  /// Goes on from `position`: the caller read bytes past the current piece (a whole number
  /// token, a byte order mark) as one.
  mutating func resume(at position: Int) {
    index = position
  }
}
