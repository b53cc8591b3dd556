/// What identifies a chunk of input: where it starts, how many lines and bytes, a hash of
/// those bytes, and the version of the rules its lines were read by.
package struct ChunkFingerprint: Equatable, Sendable {
  package var source: String
  package var firstLine: Int
  package var lineCount: Int
  package var byteCount: Int
  package var contentHash: Int64
  package var rulesVersion: Int

  package init(source: String, firstLine: Int, lineCount: Int, byteCount: Int, contentHash: Int64, rulesVersion: Int) {
    self.source = source
    self.firstLine = firstLine
    self.lineCount = lineCount
    self.byteCount = byteCount
    self.contentHash = contentHash
    self.rulesVersion = rulesVersion
  }
}
