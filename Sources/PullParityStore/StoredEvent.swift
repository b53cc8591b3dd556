/// A stored event as read back for re-derivation: the raw line is the truth, it is parsed again.
public struct StoredEvent: Sendable {
  public var raw: String
  public var source: String
  public var line: Int
}
