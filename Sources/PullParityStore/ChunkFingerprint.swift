/// What identifies a chunk of input: where it starts, how many lines and bytes, a hash of
/// those bytes, and the version of the rules its lines were read by.
public struct ChunkFingerprint: Equatable, Sendable {
  public var source: String
  public var firstLine: Int
  public var lineCount: Int
  public var byteCount: Int
  public var contentHash: Int64
  public var rulesVersion: Int

  public init(source: String, firstLine: Int, lineCount: Int, byteCount: Int, contentHash: Int64, rulesVersion: Int) {
    self.source = source
    self.firstLine = firstLine
    self.lineCount = lineCount
    self.byteCount = byteCount
    self.contentHash = contentHash
    self.rulesVersion = rulesVersion
  }
}
