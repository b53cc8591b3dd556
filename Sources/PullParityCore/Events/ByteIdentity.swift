/// An event or session id compared byte for byte.
///
/// Swift's `String` equality is canonical equivalence (`"é"` as one code point equals `"e"` +
/// U+0301) while SQLite compares bytes. Ids are keys in both places, so a dictionary or set
/// keyed by an id that used `String` would merge two ids the database keeps apart, and the
/// outcome of an ingest would depend on which lines shared a chunk. Every id-keyed collection
/// in Swift uses this type instead; labels and other texts keep `String`'s equality.
package struct ByteIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
  package let text: String

  package init(_ text: String) {
    self.text = text
  }

  package static func == (lhs: ByteIdentity, rhs: ByteIdentity) -> Bool {
    // Over the contiguous bytes, eight at a time, and without copying either string: ids are
    // compared on every dictionary probe of ingest and report, and both the UTF-8 view's walk
    // and a byte-by-byte loop (with a retain of each side) showed in profiles.
    guard lhs.text.utf8.count == rhs.text.utf8.count else { return false }
    let same = lhs.text.utf8.withContiguousStorageIfAvailable { left in
      rhs.text.utf8.withContiguousStorageIfAvailable { right in
        sameBytes(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
      }
    }
    // Native strings always lend their bytes; the view's walk is for any other.
    if let same = same ?? nil { return same }
    return lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  /// Two buffers of the same length hold the same bytes.
  private static func sameBytes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset + 8 <= left.count {
      let word = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      guard word == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
      offset += 8
    }
    while offset < left.count {
      guard left[offset] == right[offset] else { return false }
      offset += 1
    }
    return true
  }

  /// Byte order, as SQLite's BINARY collation sorts ids.
  package static func < (lhs: ByteIdentity, rhs: ByteIdentity) -> Bool {
    lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
  }

  package func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  package var description: String { text }
}
