/// When and at what finger distance a pull armed.
public struct ArmPoint: Equatable, Sendable {
  public var at: Double
  public var distance: Double

  public init(at: Double, distance: Double) {
    self.at = at
    self.distance = distance
  }
}
