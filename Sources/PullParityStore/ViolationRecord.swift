public import PullParityCore

/// A stored violation with the session dimensions reports group it by.
public struct ViolationRecord: Equatable, Sendable {
  public var sessionID: String
  public var app: String
  public var platform: String
  public var kind: ViolationKind
  public var atMs: Double
  public var expected: String?
  public var actual: String?

  public init(
    sessionID: String, app: String, platform: String, kind: ViolationKind, atMs: Double, expected: String?,
    actual: String?
  ) {
    self.sessionID = sessionID
    self.app = app
    self.platform = platform
    self.kind = kind
    self.atMs = atMs
    self.expected = expected
    self.actual = actual
  }
}
