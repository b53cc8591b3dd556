/// When the open spool file is closed and a new one started.
package struct SpoolLimits: Sendable {
  package var rotateBytes: Int
  package var rotateSeconds: Double

  package static let defaultRotateBytes = 64 << 20
  package static let defaultRotateSeconds = 300.0

  package init(rotateBytes: Int = defaultRotateBytes, rotateSeconds: Double = defaultRotateSeconds) {
    self.rotateBytes = rotateBytes
    self.rotateSeconds = rotateSeconds
  }
}
