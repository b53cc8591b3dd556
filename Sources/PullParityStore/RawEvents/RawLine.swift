/// What a block keeps of one stored event besides its bytes: where it came from, where it is
/// found (its key in `event_keys`) and what `export` and the readers select it by.
package struct RawLine: Equatable, Sendable {
  package var sessionRef: Int64
  package var sourceID: Int64
  package var line: Int
  package var byteOffset: Int
  package var timestamp: Double
  /// Its row in `event_keys` (`id_hash`): after probing past other ids, not always `EventKey.of`.
  package var key: Int64

  package init(sessionRef: Int64, sourceID: Int64, line: Int, byteOffset: Int, timestamp: Double, key: Int64) {
    self.sessionRef = sessionRef
    self.sourceID = sourceID
    self.line = line
    self.byteOffset = byteOffset
    self.timestamp = timestamp
    self.key = key
  }
}
