package import PullParityCore

/// A stored violation with the session dimensions reports group it by.
package struct ViolationRecord: Equatable, Sendable {
  package var sessionID: String
  package var app: String
  package var platform: String
  package var kind: ViolationKind
  package var atMs: Double
  package var expected: String?
  package var actual: String?

  package init(
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
