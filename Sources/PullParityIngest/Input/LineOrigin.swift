/// Where a line came from: its source's name, the offset of its first byte in the
/// (decompressed) source, and its 1-based line number when the reader knew it.
package struct LineOrigin: Equatable, Hashable, Sendable {
  package var source: String
  package var offset: Int
  package var line: Int?

  package init(source: String, offset: Int, line: Int?) {
    self.source = source
    self.offset = offset
    self.line = line
  }
}
