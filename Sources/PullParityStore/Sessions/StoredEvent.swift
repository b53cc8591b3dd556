/// A stored event as read back for re-derivation: the raw line is the truth, it is parsed again.
package struct StoredEvent: Sendable {
  package var raw: String
  package var source: String
  package var line: Int

  package init(raw: String, source: String, line: Int) {
    (self.raw, self.source, self.line) = (raw, source, line)
  }
}
