import PullParityCore

/// A value the event format forbids, refused by the recorder: no line is written, nothing is
/// thrown, and the recorder's `onError` hears this instead.
///
/// It names the method the app called, the event's field, what the field must be and the value
/// given, in the web recorder's words: `pullMove: distance must be a finite number ≥ 0, got -3`.
public struct RecorderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The recorder method: `pullMove`, `reveal`, `indicatorShown`… (`init` for its options).
  public var method: String
  /// The event's field as the log names it (`distance`, `indicator.count`), or the option.
  public var field: String
  /// What the field must be: `a finite number ≥ 0`.
  public var requirement: String
  /// The value given, as text.
  public var value: String

  public init(method: String, field: String, requirement: String, value: String) {
    self.method = method
    self.field = field
    self.requirement = requirement
    self.value = value
  }

  public var description: String { "\(method): \(field) must be \(requirement), got \(value)" }

  /// Why ingest would quarantine the line `payload` makes (EventDecoder's rules, applied to what
  /// `EventLineEncoder` writes), or `nil` when it would store it. Exactly those lines are
  /// refused, nothing more: a negative `offset`, an indicator `count` of 0 or a negative stagger
  /// are stored (and judged: a wrong count is an `indicator_config` finding), and a non-finite
  /// optional number is written as `null`, which ingest reads as no value.
  static func refusal(of payload: EventPayload) -> RecorderError? {
    switch payload {
    case .pullMove(let distance, _): return distanceRefusal("pullMove", distance)
    case .armed(let distance): return distanceRefusal("armed", distance)
    case .disarmed(let distance): return distanceRefusal("disarmed", distance)
    case .release(let distance): return distanceRefusal("release", distance)
    case .indicatorShown(let config?):
      // The decoder reads a number as an integer only below 9e15, where a double still counts
      // in ones.
      guard let count = config.count, !integerAsRead(count) else { return nil }
      return RecorderError(
        method: "indicatorShown", field: "indicator.count", requirement: "an integer", value: "\(count)")
    case .reveal(let progress, let visible):
      if !(progress >= 0 && progress <= 1) {
        return RecorderError(
          method: "reveal", field: "progress", requirement: "a number from 0 to 1", value: text(progress))
      }
      guard visible < 0 || !integerAsRead(visible) else { return nil }
      return RecorderError(method: "reveal", field: "visible", requirement: "an integer ≥ 0", value: "\(visible)")
    default:
      return nil
    }
  }

  private static func distanceRefusal(_ method: String, _ distance: Double) -> RecorderError? {
    guard !(distance >= 0 && distance.isFinite) else { return nil }
    return RecorderError(
      method: method, field: "distance", requirement: "a finite number ≥ 0", value: text(distance))
  }

  private static func integerAsRead(_ value: Int) -> Bool { abs(Double(value)) < 9e15 }

  /// A number as JavaScript prints it (`-3`, `1.2`, `NaN`, `-Infinity`), so both recorders say
  /// the same thing.
  static func text(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
