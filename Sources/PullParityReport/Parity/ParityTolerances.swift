/// How far apart two platforms may be and still be at parity (docs/events.md §6 defaults).
package struct ParityTolerances: Equatable, Sendable, Codable {
  /// On the p50 of arm distances, pt/px.
  package var armDistance: Double
  /// On the p50 of time to arm, ms. The contract sets no default; 50 ms is about three frames
  /// of touch sampling, below what a person feels.
  package var timeToArmMs: Double
  /// On the p50 of visible time, ms.
  package var visibleMs: Double
  /// On rates, in percentage points.
  package var ratePoints: Double

  package init(armDistance: Double = 2, timeToArmMs: Double = 50, visibleMs: Double = 100, ratePoints: Double = 2) {
    self.armDistance = armDistance
    self.timeToArmMs = timeToArmMs
    self.visibleMs = visibleMs
    self.ratePoints = ratePoints
  }

  package static let `default` = ParityTolerances()

  /// Between two cohorts of one app (`compare`): no change is allowed beyond what its interval
  /// says may be chance. The tolerances above are for differences between platforms.
  package static let change = ParityTolerances(armDistance: 0, timeToArmMs: 0, visibleMs: 0, ratePoints: 0)

  /// The tolerance for `metric`, in its own unit (percentage points for rates).
  package func tolerance(for metric: ParityMetric) -> Double {
    switch metric {
    case .armDistance, .clientArmDistance: armDistance
    case .timeToArmMs: timeToArmMs
    case .visibleMs: visibleMs
    default: ratePoints
    }
  }

  enum CodingKeys: String, CodingKey {
    case armDistance = "arm_distance"
    case timeToArmMs = "time_to_arm_ms"
    case visibleMs = "visible_ms"
    case ratePoints = "rate_points"
  }
}
