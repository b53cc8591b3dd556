package import PullParityCore
package import PullParityStore

/// Two cohorts of one app's sessions (two app versions, two platforms, before and after a date)
/// compared metric by metric: what `pullparity compare` prints.
///
/// Figures are computed exactly as `report` computes them (p50 by linear interpolation, rates
/// over the sessions where the flag applies, rules as `RuleEvaluator` counts them), with the
/// same tolerances and minimum sample, so a compare of two platforms agrees with the report.
package struct CohortComparison: Equatable, Sendable, Encodable {
  /// Bumped on any change of this JSON's shape.
  package static let formatVersion = 2

  package var baseline: Cohort
  package var candidate: Cohort
  /// The apps of the compared sessions, in name order: one, unless the caller allowed more.
  package var apps: [String]
  /// Only sessions of this trigger were compared; `nil`: all sessions, whatever their trigger.
  package var trigger: RefreshTrigger?
  package var context: ReportContext
  package var baselineSessions: Int
  package var candidateSessions: Int
  /// One per `ComparedFigure` of the app's profile, in its order.
  package var deltas: [CohortDelta]
  /// What the arm distances were judged against, in words (`the profile's arming point`, `pwa's
  /// p50`); `nil` when they were not judged against a target.
  package var armTarget: String?

  /// `baselineSessions` and `candidateSessions` are the sessions each cohort's filter read;
  /// those of another trigger than `trigger` are left out here, so a pull's figures are not
  /// diluted by tab re-selects (as `report` keeps triggers apart). The sessions are judged with
  /// the profile the first of them was derived with (its rules are compared too); the context
  /// names every profile the compared sessions were derived with.
  package init(
    baseline: Cohort, baselineSessions: [SessionRecord], candidate: Cohort, candidateSessions: [SessionRecord],
    trigger: RefreshTrigger?, profiles: SessionProfiles, context: ReportContext,
    reference: (platform: String, sessions: [SessionRecord])? = nil
  ) {
    func kept(_ sessions: [SessionRecord]) -> [SessionRecord] {
      guard let trigger else { return sessions }
      return sessions.filter { $0.metrics.trigger == trigger }
    }
    let before = kept(baselineSessions)
    let after = kept(candidateSessions)
    self.baseline = baseline
    self.candidate = candidate
    // Byte for byte, as the database keeps names apart (`SessionCell`).
    self.apps = Set((before + after).map { ByteIdentity($0.app) }).sorted().map(\.text)
    self.trigger = trigger
    self.context = context
    self.context.span(before + after)
    self.context.profiles = profiles.stamps(of: before + after)
    let first = (before + after).first ?? (baselineSessions + candidateSessions).first
    // No session at all: nothing is measured, whatever the profile.
    let profile =
      first.map { profiles.profile($0.profile, version: $0.profileVersion).profile } ?? .unconstrained(named: "")
    self.baselineSessions = before.count
    self.candidateSessions = after.count
    let referenceSessions = kept(reference?.sessions ?? [])
    deltas = ComparedFigure.all(for: profile).map { figure in
      CohortDelta(
        figure: figure, unit: figure.unit(distance: profile.unit.rawValue),
        baseline: figure.measure(before, profile: profile),
        candidate: figure.measure(after, profile: profile),
        tolerance: figure.allowedChange(context.tolerances, policy: context.policy, profile: profile),
        target: figure.target(profile) ?? figure.referenceTarget(referenceSessions, profile: profile),
        policy: context.policy)
    }
    judgeTogether()
    if deltas.contains(where: { $0.target != nil }) {
      armTarget = profile.armThreshold != nil ? "the profile's arming point" : reference.map { "\($0.platform)'s p50" }
    }
  }

  /// Judges the figures as one family (`FamilyJudgement`): the comparison fails when any
  /// figure regressed, with false alarms held to 5 % for the whole run.
  private mutating func judgeTogether() {
    let (judgements, summary) = FamilyJudgement.judge(deltas.map(\.evidence))
    for index in deltas.indices { deltas[index].record(judgements[index]) }
    context.family = summary
  }

  /// The figures that got worse beyond their tolerance, in order.
  package var regressions: [ComparedFigure] { deltas.filter { $0.verdict == .regression }.map(\.figure) }

  /// How the gate ends: a regression fails; no figure with enough sessions does not pass.
  package var outcome: GateOutcome { context.policy.gate(deltas.map(\.verdict.gateVerdict)) }

  package func delta(_ figure: ComparedFigure) -> CohortDelta? { deltas.first { $0.figure == figure } }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case apps, trigger, context, baseline, candidate, outcome, regressions, metrics
  }

  private struct Side: Encodable {
    var selector: String
    var filter: SessionFilter
    var sessions: Int
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .formatVersion)
    try container.encode(apps, forKey: .apps)
    // "all" rather than null: a reader should not have to guess what a missing trigger means.
    try container.encode(trigger?.rawValue ?? "all", forKey: .trigger)
    try container.encode(context, forKey: .context)
    try container.encode(
      Side(selector: baseline.selector, filter: baseline.filter, sessions: baselineSessions), forKey: .baseline)
    try container.encode(
      Side(selector: candidate.selector, filter: candidate.filter, sessions: candidateSessions), forKey: .candidate)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(regressions.map(\.key), forKey: .regressions)
    try container.encode(deltas, forKey: .metrics)
  }
}
