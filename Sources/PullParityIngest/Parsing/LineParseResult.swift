package import PullParityCore

/// What one physical line of input turned out to be.
package enum LineParseResult: Equatable, Sendable {
  case event(Event)
  /// Empty or only `\r`: neither an event nor a rejection.
  case blank
  case rejected(Rejection)
}
