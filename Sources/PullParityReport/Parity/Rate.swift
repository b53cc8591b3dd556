/// A share of sessions, always with what it was counted from.
package struct Rate: Equatable, Sendable, Encodable {
  package var numerator: Int
  package var denominator: Int

  package init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// Counts the sessions where `flag` is known, and of those the ones where it is true.
  package init<S: Sequence>(_ flags: S) where S.Element == Bool? {
    var numerator = 0
    var denominator = 0
    for case let flag? in flags {
      denominator += 1
      if flag { numerator += 1 }
    }
    self.init(numerator: numerator, denominator: denominator)
  }

  /// 0...1, `nil` with no sessions to count.
  package var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

  /// 0...100, `nil` with no sessions to count.
  package var percent: Double? { value.map { $0 * 100 } }

  /// The Wilson score interval (0...1) at `z` standard errors: unlike the textbook ± interval it
  /// stays within 0...1 and is not empty at 0 % or 100 %, which are common rates here.
  package func wilson(z: Double = 1.959_963_984_540_054) -> (low: Double, high: Double)? {
    guard let p = value else { return nil }
    let n = Double(denominator)
    let z2 = z * z
    let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    let half = z / (1 + z2 / n) * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    return (max(0, centre - half), min(1, centre + half))
  }

  enum CodingKeys: String, CodingKey { case numerator, denominator, percent }

  /// One shape for every rate in every JSON output: numerator, denominator, percent.
  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(numerator, forKey: .numerator)
    try container.encode(denominator, forKey: .denominator)
    try container.encode(Measured.percent(percent), forKey: .percent)
  }
}
