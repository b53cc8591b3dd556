package import PullParityCore

/// The platforms of one app side by side, for one slice of its sessions (a trigger, a screen).
package struct ParityGroup: Equatable, Sendable, Encodable {
  /// What the slice is, e.g. `trigger` = `pull`.
  package var dimension: String
  package var value: String
  /// `nil` when the group has a single platform.
  package var referencePlatform: String?
  package var platforms: [PlatformSummary]
  package private(set) var comparisons: [MetricComparison]
  /// Where each platform's comparison of each metric is in `comparisons`: every format looks
  /// one up per platform and metric, and a scan made a report of 10,000 platforms take 90 s.
  private var comparisonIndex: [ComparisonKey: Int]

  private struct ComparisonKey: Hashable {
    var metric: ParityMetric
    var platform: String
  }

  package init(
    dimension: String, value: String, referencePlatform: String?, platforms: [PlatformSummary],
    comparisons: [MetricComparison]
  ) {
    self.dimension = dimension
    self.value = value
    self.referencePlatform = referencePlatform
    self.platforms = platforms
    self.comparisons = comparisons
    var index: [ComparisonKey: Int] = [:]
    for (position, comparison) in comparisons.enumerated() {
      let key = ComparisonKey(metric: comparison.metric, platform: comparison.platform)
      if index[key] == nil { index[key] = position }
    }
    comparisonIndex = index
  }

  /// Changes every comparison in place, in order (their metrics and platforms stay).
  package mutating func updateComparisons(_ change: (inout MetricComparison) -> Void) {
    for index in comparisons.indices { change(&comparisons[index]) }
  }

  /// The reference platform first, then the others in name order: the column order of every
  /// format.
  package var orderedPlatforms: [PlatformSummary] {
    platforms.filter { $0.platform == referencePlatform } + platforms.filter { $0.platform != referencePlatform }
  }

  /// The platforms compared with the reference, in column order; none without a reference.
  package var comparedPlatforms: [PlatformSummary] {
    referencePlatform == nil ? [] : orderedPlatforms.filter { $0.platform != referencePlatform }
  }

  /// How `platform` compares with the reference on `metric`.
  package func comparison(of metric: ParityMetric, for platform: String) -> MetricComparison? {
    comparisonIndex[ComparisonKey(metric: metric, platform: platform)].map { comparisons[$0] }
  }

  /// The budget of `rule` (percent): as the platforms' results were judged against it, else the
  /// profile's.
  package func budgetPercent(for rule: ProfileRule, profile: Profile) -> Double {
    orderedPlatforms.lazy.compactMap { $0.rule(rule)?.budgetPercent }.first ?? profile.budget(for: rule)
  }

  /// Every verdict of the group: the comparisons, then each platform's rules.
  package var verdicts: [Verdict] { comparisons.map(\.verdict) + platforms.flatMap(\.rules).map(\.verdict) }

  package var kind: GroupKind {
    guard verdicts.contains(where: \.isJudged) else { return .skipped }
    return platforms.count > 1 ? .compared : .judgedAlone
  }

  /// Fail when a comparison or a rule failed; else pass when anything was judged.
  package var verdict: Verdict {
    if verdicts.contains(.fail) { return .fail }
    if verdicts.contains(.pass) { return .pass }
    return verdicts.contains(.insufficientData) ? .insufficientData : .noData
  }

  enum CodingKeys: String, CodingKey {
    case dimension, value, platforms, comparisons, kind, verdict
    case referencePlatform = "reference_platform"
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(dimension, forKey: .dimension)
    try container.encode(value, forKey: .value)
    try container.encode(referencePlatform, forKey: .referencePlatform)
    try container.encode(kind, forKey: .kind)
    try container.encode(verdict, forKey: .verdict)
    try container.encode(platforms, forKey: .platforms)
    try container.encode(comparisons, forKey: .comparisons)
  }
}
