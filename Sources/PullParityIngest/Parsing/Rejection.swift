/// Why a line was not stored, in words that name the field and what was wrong.
package struct Rejection: Error, Equatable, Sendable {
  package var reason: RejectionReason
  package var message: String

  package init(_ reason: RejectionReason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  /// `reason: message`, as stored in `quarantine.reason`.
  package var description: String { "\(reason.rawValue): \(message)" }
}
