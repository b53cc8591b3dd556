/// What a block keeps of one stored event besides its bytes: where it came from and what
/// `export` and the readers select it by.
package struct RawLine: Equatable, Sendable {
  package var sessionRef: Int64
  package var sourceID: Int64
  package var line: Int
  package var byteOffset: Int
  package var timestamp: Double

  package init(sessionRef: Int64, sourceID: Int64, line: Int, byteOffset: Int, timestamp: Double) {
    self.sessionRef = sessionRef
    self.sourceID = sourceID
    self.line = line
    self.byteOffset = byteOffset
    self.timestamp = timestamp
  }

  static let zero = RawLine(sessionRef: 0, sourceID: 0, line: 0, byteOffset: 0, timestamp: 0)
}
