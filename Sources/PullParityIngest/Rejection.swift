/// Why a line was not stored, in words that name the field and what was wrong.
public struct Rejection: Error, Equatable, Sendable {
  public var reason: RejectionReason
  public var message: String

  public init(_ reason: RejectionReason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  /// `reason: message`, as stored in `quarantine.reason`.
  public var description: String { "\(reason.rawValue): \(message)" }
}
