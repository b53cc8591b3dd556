public import PullParityCore

/// A read line waiting in a batch to be stored or quarantined.
struct PendingLine: Sendable {
  enum Content: Sendable {
    case event(Event)
    case rejected(Rejection)
  }

  var content: Content
  var sourceIndex: Int
  var line: Int
  var byteOffset: Int
  /// The raw bytes in the batch's arena.
  var rawStart: Int
  var rawCount: Int
}
