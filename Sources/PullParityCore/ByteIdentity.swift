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
    // Over the contiguous bytes, not the generic UTF-8 view: ids are compared on every
    // dictionary probe of ingest and report, and the view's element-by-element walk showed in
    // profiles.
    var (left, right) = (lhs.text, rhs.text)
    guard left.utf8.count == right.utf8.count else { return false }
    return left.withUTF8 { left in right.withUTF8 { right in left.elementsEqual(right) } }
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
