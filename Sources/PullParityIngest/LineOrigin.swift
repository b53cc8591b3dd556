/// Where a line came from: its source's name, the offset of its first byte in the
/// (decompressed) source, and its 1-based line number when the reader knew it.
public struct LineOrigin: Equatable, Hashable, Sendable {
  public var source: String
  public var offset: Int
  public var line: Int?

  public init(source: String, offset: Int, line: Int?) {
    self.source = source
    self.offset = offset
    self.line = line
  }
}
