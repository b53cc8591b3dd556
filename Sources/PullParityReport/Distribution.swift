/// Sample size and percentiles of one metric for one group of sessions.
package struct Distribution: Equatable, Sendable, Encodable {
  package var n: Int
  package var p50: Double?
  package var p90: Double?
  package var p95: Double?

  package init(_ values: [Double]) {
    let sorted = values.sorted()
    n = sorted.count
    p50 = Percentile.of(sorted: sorted, 0.5)
    p90 = Percentile.of(sorted: sorted, 0.9)
    p95 = Percentile.of(sorted: sorted, 0.95)
  }

  enum CodingKeys: String, CodingKey { case n, p50, p90, p95 }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(n, forKey: .n)
    try container.encode(Measured.value(p50), forKey: .p50)
    try container.encode(Measured.value(p90), forKey: .p90)
    try container.encode(Measured.value(p95), forKey: .p95)
  }
}
