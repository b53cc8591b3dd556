/// A share of sessions, always with what it was counted from.
public struct Rate: Equatable, Sendable, Encodable {
  public var numerator: Int
  public var denominator: Int

  public init(numerator: Int, denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// Counts the sessions where `flag` is known, and of those the ones where it is true.
  public init<S: Sequence>(_ flags: S) where S.Element == Bool? {
    var numerator = 0
    var denominator = 0
    for case let flag? in flags {
      denominator += 1
      if flag { numerator += 1 }
    }
    self.init(numerator: numerator, denominator: denominator)
  }

  /// 0...1, `nil` with no sessions to count.
  public var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

  enum CodingKeys: String, CodingKey { case numerator, denominator, value }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(numerator, forKey: .numerator)
    try container.encode(denominator, forKey: .denominator)
    try container.encode(value, forKey: .value)
  }
}
