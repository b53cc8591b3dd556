/// Progressive reveal of indicator bars while pulling: bar `i` (0-based) may show from progress
/// `i × progressStep`.
public struct RevealRule: Equatable, Sendable, Codable {
  public var bars: Int
  public var progressStep: Double
  /// The pull distance that counts as progress 1.
  public var fullPullDistance: Double

  public init(bars: Int, progressStep: Double, fullPullDistance: Double) {
    self.bars = bars
    self.progressStep = progressStep
    self.fullPullDistance = fullPullDistance
  }

  /// Bars allowed at `progress`. Compared on a 10⁻⁹ grid rather than in binary floating point,
  /// so that progress 0.6 allows the bar at 3 × 0.2 (which is 0.6000000000000001 in binary).
  public func barsAllowed(atProgress progress: Double) -> Int {
    let scaledProgress = Self.scaled(progress)
    let scaledStep = Self.scaled(progressStep)
    guard scaledProgress >= 0, scaledStep > 0 else { return scaledProgress >= 0 ? bars : 0 }
    return min(bars, Int(scaledProgress / scaledStep) + 1)
  }

  private static func scaled(_ value: Double) -> Int64 {
    Int64((value * 1_000_000_000).rounded())
  }

  /// The file format's keys; the profile file validator lists them to reject unknown ones.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case bars
    case progressStep = "progress_step"
    case fullPullDistance = "full_pull_distance"
  }
}
