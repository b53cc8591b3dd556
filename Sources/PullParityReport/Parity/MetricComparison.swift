/// One metric of one platform against the reference platform.
package struct MetricComparison: Equatable, Sendable, Encodable {
  package var metric: ParityMetric
  package var platform: String
  package var reference: String
  /// p50 for distributions; percent (0–100) for rates.
  package var value: Double?
  package var referenceValue: Double?
  /// `value` − `referenceValue`: in the metric's unit, percentage points for rates.
  package var difference: Double?
  /// Rates only: the 95 % confidence interval of the difference, percentage points.
  package var interval: RateDifference?
  package var tolerance: Double
  /// The smaller side's sample: sessions with a value, or a rate's denominator.
  package var n: Int
  /// Rates fail when the whole interval lies beyond the tolerance; distributions when the p50s
  /// differ by more than it.
  package var verdict: Verdict

  enum CodingKeys: String, CodingKey {
    case metric, platform, reference, value, difference, tolerance, n, verdict
    case referenceValue = "reference_value"
    case intervalLow = "difference_ci_low"
    case intervalHigh = "difference_ci_high"
  }

  private func rounded(_ x: Double?) -> Double? { metric.isRate ? Measured.percent(x) : Measured.value(x) }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(metric, forKey: .metric)
    try container.encode(platform, forKey: .platform)
    try container.encode(reference, forKey: .reference)
    try container.encode(rounded(value), forKey: .value)
    try container.encode(rounded(referenceValue), forKey: .referenceValue)
    try container.encode(rounded(difference), forKey: .difference)
    if metric.isRate {
      try container.encode(Measured.percent(interval?.low), forKey: .intervalLow)
      try container.encode(Measured.percent(interval?.high), forKey: .intervalHigh)
    }
    try container.encode(tolerance, forKey: .tolerance)
    try container.encode(n, forKey: .n)
    try container.encode(verdict, forKey: .verdict)
  }
}
