/// Sample size and percentiles of one metric for one group of sessions.
public struct Distribution: Equatable, Sendable, Codable {
  public var n: Int
  public var p50: Double?
  public var p90: Double?
  public var p95: Double?

  public init(_ values: [Double]) {
    let sorted = values.sorted()
    n = sorted.count
    p50 = Percentile.of(sorted: sorted, 0.5)
    p90 = Percentile.of(sorted: sorted, 0.9)
    p95 = Percentile.of(sorted: sorted, 0.95)
  }
}
