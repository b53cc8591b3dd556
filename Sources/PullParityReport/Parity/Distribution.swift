/// Sample size and percentiles of one metric for one group of sessions.
package struct Distribution: Equatable, Sendable, Encodable {
  package var n: Int
  package var p50: Double?
  package var p90: Double?
  package var p95: Double?

  package init(_ values: [Double]) {
    n = values.count
    let percentiles = Percentile.of(unsorted: values, [0.5, 0.9, 0.95])
    (p50, p90, p95) = (percentiles[0], percentiles[1], percentiles[2])
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
