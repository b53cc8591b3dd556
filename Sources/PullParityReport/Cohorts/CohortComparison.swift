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
    func cells(_ sessions: [SessionRecord]) -> [SessionCell: SessionDigest] {
      var digests = CellDigests(profiles: profiles)
      for session in sessions { digests.add(session) }
      return digests.byCell
    }
    let kept = (baselineSessions + candidateSessions).filter { trigger == nil || $0.metrics.trigger == trigger }
    let first = kept.first ?? (baselineSessions + candidateSessions).first
    self.init(
      baseline: baseline, baselineCells: cells(baselineSessions), candidate: candidate,
      candidateCells: cells(candidateSessions), trigger: trigger, profiles: profiles, context: context,
      reference: reference.map { ($0.platform, cells($0.sessions)) },
      judgedWith: first.map { ($0.profile, $0.profileVersion) })
  }

  /// The comparison of the sessions the digests by cell count (the stored digests of each
  /// cohort's filter, or its sessions counted now): figures exactly as from the sessions.
  /// `judgedWith`: the profile the sessions are judged with; nil, the first compared cell's (in
  /// profile name and version order).
  package init(
    baseline: Cohort, baselineCells: [SessionCell: SessionDigest], candidate: Cohort,
    candidateCells: [SessionCell: SessionDigest], trigger: RefreshTrigger?, profiles: SessionProfiles,
    context: ReportContext, reference: (platform: String, cells: [SessionCell: SessionDigest])? = nil,
    judgedWith: (name: String, version: Int)? = nil
  ) {
    func kept(_ cells: [SessionCell: SessionDigest]) -> [SessionCell: SessionDigest] {
      guard let trigger else { return cells }
      return cells.filter { $0.key.trigger == trigger.rawValue }
    }
    let before = kept(baselineCells)
    let after = kept(candidateCells)
    let compared = Array(before.keys) + Array(after.keys)
    self.baseline = baseline
    self.candidate = candidate
    // Byte for byte, as the database keeps names apart (`SessionCell`).
    self.apps = Set(compared.map { ByteIdentity($0.app) }).sorted().map(\.text)
    self.trigger = trigger
    self.context = context
    for digest in Array(before.values) + Array(after.values) { self.context.include(digest) }
    self.context.profiles = profiles.stamps(of: compared)
    let named =
      judgedWith
      ?? (compared.isEmpty ? Array(baselineCells.keys) + Array(candidateCells.keys) : compared)
      .map { (name: $0.profile, version: $0.profileVersion) }
      .min { (ByteIdentity($0.name), $0.version) < (ByteIdentity($1.name), $1.version) }
    // No session at all: nothing is measured, whatever the profile.
    let profile = named.map { profiles.profile($0.name, version: $0.version).profile } ?? .unconstrained(named: "")
    let (old, new) = (Self.merged(before), Self.merged(after))
    self.baselineSessions = old.sessions
    self.candidateSessions = new.sessions
    let referenceDigest = reference.map { Self.merged(kept($0.cells)) }
    deltas = ComparedFigure.all(for: profile).map { figure in
      CohortDelta(
        figure: figure, unit: figure.unit(distance: profile.unit.rawValue),
        baseline: figure.measure(old), candidate: figure.measure(new),
        tolerance: figure.allowedChange(context.tolerances, policy: context.policy, profile: profile),
        target: figure.target(profile) ?? referenceDigest.flatMap { figure.referenceTarget($0, profile: profile) },
        policy: context.policy)
    }
    judgeTogether()
    if deltas.contains(where: { $0.target != nil }) {
      armTarget = profile.armThreshold != nil ? "the profile's arming point" : reference.map { "\($0.platform)'s p50" }
    }
  }

  private static func merged(_ cells: [SessionCell: SessionDigest]) -> SessionDigest {
    var all = SessionDigest()
    for digest in cells.values { all.merge(digest) }
    return all
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
