/// One metric of one platform against the reference platform.
public struct MetricComparison: Equatable, Sendable, Codable {
  public var metric: ParityMetric
  public var platform: String
  public var reference: String
  /// p50 for distributions; percent (0–100) for rates.
  public var value: Double?
  public var referenceValue: Double?
  public var difference: Double?
  public var tolerance: Double
  /// `nil` when either side has no data.
  public var atParity: Bool?

  enum CodingKeys: String, CodingKey {
    case metric, platform, reference, value, difference, tolerance
    case referenceValue = "reference_value"
    case atParity = "at_parity"
  }
}
