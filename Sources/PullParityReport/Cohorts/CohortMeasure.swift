/// One cohort's figure for one compared figure: the p50 of a distribution, or a rate in percent
/// with what it was counted from.
package struct CohortMeasure: Equatable, Sendable, Encodable {
  /// p50 in the metric's unit; percent (0–100) for rates. `nil` without data.
  package var value: Double?
  /// Sample size: the sessions with a value, or a rate's denominator.
  package var n: Int
  /// Rates only.
  package var rate: Rate?
  /// Distributions only: what the median's interval is drawn from.
  package var sample: MedianSample?

  package init(value: Double?, n: Int) {
    self.value = value
    self.n = n
  }

  /// A distribution's p50 with the sample its interval is drawn from.
  package init(values: [Double]) {
    let sample = MedianSample(values)
    self.init(value: sample.median, n: sample.n)
    self.sample = sample
  }

  package init(rate: Rate) {
    self.value = rate.percent
    self.n = rate.denominator
    self.rate = rate
  }

  enum CodingKeys: String, CodingKey { case value, n, numerator, denominator, percent }

  /// A rate has the shape of every rate (numerator, denominator, percent); a distribution its
  /// p50 as `value` and its `n`.
  package func encode(to encoder: any Encoder) throws {
    if let rate {
      try rate.encode(to: encoder)
      return
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Measured.value(value), forKey: .value)
    try container.encode(n, forKey: .n)
  }
}
