import PullParityCore

/// One cohort's figure for one metric: the p50 of a distribution, or a rate in percent with what
/// it was counted from.
public struct CohortMeasure: Equatable, Sendable, Encodable {
  /// p50 in the metric's unit; percent (0–100) for rates. `nil` without data.
  public var value: Double?
  /// Sample size: the sessions with a value, or a rate's denominator.
  public var n: Int
  /// A rate's numerator; `nil` for distributions.
  public var numerator: Int?

  public init(value: Double?, n: Int, numerator: Int? = nil) {
    self.value = value
    self.n = n
    self.numerator = numerator
  }

  /// The measure of `metric` over `sessions`, computed the way `report` computes it.
  init(_ metric: ParityMetric, of sessions: [SessionMetrics]) {
    if metric.isRate {
      let rate = Rate(sessions.lazy.map { metric.flag($0) })
      self.init(value: rate.value.map { $0 * 100 }, n: rate.denominator, numerator: rate.numerator)
    } else {
      let distribution = Distribution(sessions.compactMap { metric.value($0) })
      self.init(value: distribution.p50, n: distribution.n)
    }
  }

  enum CodingKeys: String, CodingKey { case value, n, numerator }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(value, forKey: .value)
    try container.encode(n, forKey: .n)
    try container.encodeIfPresent(numerator, forKey: .numerator)
  }
}
