/// The refreshing indicator's animation, as a client reports it or a profile requires it.
/// Absent numbers are not checked, and `kind` never is (see `Profile.indicator`).
public struct IndicatorConfig: Equatable, Sendable, Codable {
  public var kind: IndicatorKind?
  public var count: Int?
  public var staggerMs: Double?
  public var cycleMs: Double?

  public init(kind: IndicatorKind? = nil, count: Int? = nil, staggerMs: Double? = nil, cycleMs: Double? = nil) {
    self.kind = kind
    self.count = count
    self.staggerMs = staggerMs
    self.cycleMs = cycleMs
  }

  /// The file format's keys; the profile file validator lists them to reject unknown ones.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case kind, count
    case staggerMs = "stagger_ms"
    case cycleMs = "cycle_ms"
  }
}
