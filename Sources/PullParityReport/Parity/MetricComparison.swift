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
  /// The interval of the difference at the level the run judged it at (`FamilyJudgement`),
  /// in the metric's unit; `nil` without a verdict.
  package var interval: JudgedInterval?
  package var tolerance: Double
  /// The smaller side's sample: sessions with a value, or a rate's denominator.
  package var n: Int
  /// Fails when the whole interval lies beyond the tolerance, either way.
  package var verdict: Verdict
  /// What the verdict is drawn from, until the run's figures are judged together.
  package var evidence: Evidence?

  package init(
    metric: ParityMetric, platform: String, reference: String, value: Double?, referenceValue: Double?,
    difference: Double?, interval: JudgedInterval?, tolerance: Double, n: Int, verdict: Verdict
  ) {
    (self.metric, self.platform, self.reference, self.value) = (metric, platform, reference, value)
    (self.referenceValue, self.difference, self.interval) = (referenceValue, difference, interval)
    (self.tolerance, self.n, self.verdict) = (tolerance, n, verdict)
  }

  /// Takes the run's judgement of the figure.
  package mutating func record(_ judgement: FamilyJudgement.Judgement?) {
    guard let judgement else { return }
    (verdict, interval) = (judgement.verdict, judgement.interval)
  }

  enum CodingKeys: String, CodingKey {
    case metric, platform, reference, value, difference, tolerance, n, verdict
    case referenceValue = "reference_value"
    case intervalLow = "difference_ci_low"
    case intervalHigh = "difference_ci_high"
    case confidence = "ci_confidence"
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
    try container.encode(rounded(interval.flatMap { JudgedInterval.finite($0.low) }), forKey: .intervalLow)
    try container.encode(rounded(interval.flatMap { JudgedInterval.finite($0.high) }), forKey: .intervalHigh)
    try container.encode(interval.map { Measured.rounded($0.confidence, places: 6) }, forKey: .confidence)
    try container.encode(tolerance, forKey: .tolerance)
    try container.encode(n, forKey: .n)
    try container.encode(verdict, forKey: .verdict)
  }
}
