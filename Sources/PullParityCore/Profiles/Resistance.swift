/// How far the indicator is drawn for a finger distance: a constant factor (`0.72`), or a curve
/// of `[finger, drawn]` points for libraries whose pull stiffens as it goes (pulltorefresh.js
/// draws `min(1, d / 150) × min(80, d)`), interpolated linearly between the points.
///
/// Before the first point the curve runs straight from `(0, 0)`; past the last it stays at the
/// last drawn value, as a library that caps its indicator does.
public enum Resistance: Equatable, Sendable, Codable {
  case factor(Double)
  case curve([CurvePoint])

  public struct CurvePoint: Equatable, Sendable {
    public var finger: Double
    public var drawn: Double

    public init(finger: Double, drawn: Double) {
      self.finger = finger
      self.drawn = drawn
    }
  }

  /// The indicator offset drawn for `finger` travel.
  public func drawn(atFinger finger: Double) -> Double {
    switch self {
    case .factor(let factor): return finger * factor
    case .curve(let points):
      var previous = CurvePoint(finger: 0, drawn: 0)
      for point in points {
        if finger <= point.finger {
          let span = point.finger - previous.finger
          guard span > 0 else { return point.drawn }
          return previous.drawn + (finger - previous.finger) / span * (point.drawn - previous.drawn)
        }
        previous = point
      }
      return previous.drawn
    }
  }

  /// The least finger travel that draws `drawn`, or `nil` when the curve never gets there:
  /// where a threshold on the drawn offset lies in finger terms (the report's arm-point line).
  public func finger(forDrawn drawn: Double) -> Double? {
    switch self {
    case .factor(let factor): return factor > 0 ? drawn / factor : nil
    case .curve(let points):
      var previous = CurvePoint(finger: 0, drawn: 0)
      for point in points {
        if drawn <= point.drawn, point.drawn > previous.drawn {
          let share = (drawn - previous.drawn) / (point.drawn - previous.drawn)
          return previous.finger + max(0, share) * (point.finger - previous.finger)
        }
        previous = point
      }
      return nil
    }
  }

  /// What makes it unusable, for the profile file's error; `nil` when it is fine. A curve must
  /// rise from the origin: fingers strictly increasing from above 0, drawn never going back.
  public var problem: String? {
    switch self {
    case .factor(let factor):
      return factor > 0 && factor.isFinite ? nil : "must be more than 0, got \(NumberText.format(factor))"
    case .curve(let points):
      guard let last = points.last, last.drawn > 0 else { return "a curve needs a point that draws more than 0" }
      var previous = CurvePoint(finger: 0, drawn: 0)
      for (index, point) in points.enumerated() {
        guard point.finger.isFinite, point.drawn.isFinite, point.finger > previous.finger, point.drawn >= previous.drawn
        else {
          return "point \(index) [\(NumberText.format(point.finger)), \(NumberText.format(point.drawn))] must have "
            + "a larger finger distance and no smaller drawn offset than the point before (or the origin)"
        }
        previous = point
      }
      return nil
    }
  }

  /// How reports write it: `0.72`, or the curve's points.
  public var description: String {
    switch self {
    case .factor(let factor): return NumberText.format(factor)
    case .curve(let points):
      return "curve "
        + points.map { "\(NumberText.format($0.finger))→\(NumberText.format($0.drawn))" }
        .joined(separator: " ")
    }
  }

  /// A number, or an array of `[finger, drawn]` pairs.
  public init(from decoder: any Decoder) throws {
    let single = try decoder.singleValueContainer()
    if let factor = try? single.decode(Double.self) {
      self = .factor(factor)
      return
    }
    let pairs = try single.decode([[Double]].self)
    guard pairs.allSatisfy({ $0.count == 2 }) else {
      throw DecodingError.dataCorruptedError(
        in: single, debugDescription: "each point of a resistance curve is [finger, drawn]")
    }
    self = .curve(pairs.map { CurvePoint(finger: $0[0], drawn: $0[1]) })
  }

  /// A factor as the number it was before curves existed, so the stored hash of every profile
  /// written then is unchanged.
  public func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    switch self {
    case .factor(let factor): try single.encode(factor)
    case .curve(let points): try single.encode(points.map { [$0.finger, $0.drawn] })
    }
  }
}
