public import PullParityCore
public import PullParityStore

/// Two cohorts of one app's sessions (two app versions, two platforms, before and after a date)
/// compared metric by metric: what `pullparity compare` prints.
///
/// Figures are computed exactly as `report` computes them (p50 by linear interpolation, rates
/// over the sessions where the flag applies), with the same metrics and tolerances, so a
/// compare of two platforms agrees with the report's parity table for them.
public struct CohortComparison: Equatable, Sendable, Encodable {
  /// Bumped on any change of this JSON's shape.
  public static let formatVersion = 1

  public var baseline: Cohort
  public var candidate: Cohort
  /// The apps of the compared sessions, in name order: one, unless the caller allowed more.
  public var apps: [String]
  /// Only sessions of this trigger were compared; `nil`: all sessions, whatever their trigger.
  public var trigger: RefreshTrigger?
  public var tolerances: ParityTolerances
  public var baselineSessions: Int
  public var candidateSessions: Int
  /// One per `ParityMetric`, in its order.
  public var deltas: [CohortDelta]

  /// `baselineSessions` and `candidateSessions` are the sessions each cohort's filter read;
  /// those of another trigger than `trigger` are left out here, so a pull's figures are not
  /// diluted by tab re-selects (as `report` keeps triggers apart).
  public init(
    baseline: Cohort, baselineSessions: [SessionRecord], candidate: Cohort, candidateSessions: [SessionRecord],
    trigger: RefreshTrigger?, tolerances: ParityTolerances = .default
  ) {
    func kept(_ sessions: [SessionRecord]) -> [SessionRecord] {
      guard let trigger else { return sessions }
      return sessions.filter { $0.metrics.trigger == trigger }
    }
    let before = kept(baselineSessions)
    let after = kept(candidateSessions)
    self.baseline = baseline
    self.candidate = candidate
    self.apps = Set((before + after).map(\.app)).sorted()
    self.trigger = trigger
    self.tolerances = tolerances
    self.baselineSessions = before.count
    self.candidateSessions = after.count
    let beforeMetrics = before.map(\.metrics)
    let afterMetrics = after.map(\.metrics)
    deltas = ParityMetric.allCases.map { metric in
      CohortDelta(
        metric: metric, baseline: CohortMeasure(metric, of: beforeMetrics),
        candidate: CohortMeasure(metric, of: afterMetrics), tolerance: tolerances.tolerance(for: metric))
    }
  }

  /// The metrics that got worse beyond their tolerance, in `ParityMetric` order.
  public var regressions: [ParityMetric] { deltas.filter { $0.verdict == .regression }.map(\.metric) }

  /// Any regression: `compare` exits 1.
  public var regressed: Bool { !regressions.isEmpty }

  public func delta(_ metric: ParityMetric) -> CohortDelta? { deltas.first { $0.metric == metric } }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case apps, trigger, tolerances, baseline, candidate, regressed, regressions, metrics
  }

  private struct Side: Encodable {
    var selector: String
    var filter: SessionFilter
    var sessions: Int
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .formatVersion)
    try container.encode(apps, forKey: .apps)
    // "all" rather than null: a reader should not have to guess what a missing trigger means.
    try container.encode(trigger?.rawValue ?? "all", forKey: .trigger)
    try container.encode(tolerances, forKey: .tolerances)
    try container.encode(
      Side(selector: baseline.selector, filter: baseline.filter, sessions: baselineSessions), forKey: .baseline)
    try container.encode(
      Side(selector: candidate.selector, filter: candidate.filter, sessions: candidateSessions), forKey: .candidate)
    try container.encode(regressed, forKey: .regressed)
    try container.encode(regressions, forKey: .regressions)
    try container.encode(deltas, forKey: .metrics)
  }
}
