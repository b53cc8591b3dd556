package import PullParityCore
package import PullParityStore

/// What a parity report and the QA checklist need of a group of sessions, counted one session at
/// a time: counts, every value of the distribution metrics, rates, rule and checklist tallies
/// and the header's figures.
/// Digests of disjoint groups merge into the digest of their union, exactly: values are kept
/// (never binned), so percentiles of a merged digest are those of its sessions.
package struct SessionDigest: Equatable, Sendable {
  /// The metrics a distribution is built from, and those a rate counts, in `ParityMetric` order.
  package static let valueMetrics = ParityMetric.allCases.filter { !$0.isRate }
  package static let rateMetrics = ParityMetric.allCases.filter(\.isRate)

  package var sessions = 0
  package var completed = 0
  package var cancelled = 0
  package var incomplete = 0
  /// v1.2: the screen was left during the refresh.
  package var abandoned = 0
  /// By `valueMetrics` index: the values of the sessions that have one, in no particular order.
  package var values: [[Double]] = Array(repeating: [], count: valueMetrics.count)
  /// Finger distances at the release of the pulls that have one, in no particular order: the
  /// HTML report's histogram against the arming point.
  package var releases: [Double] = []
  /// By `rateMetrics` index.
  package var rates: [Rate] = Array(repeating: Rate(numerator: 0, denominator: 0), count: rateMetrics.count)
  /// By `ProfileRule.allCases` index, whether or not the profile asks for the rule.
  package var rules: [SessionTally] = Array(repeating: SessionTally(), count: ProfileRule.allCases.count)
  /// Start times (epoch ms) of the first and last session.
  package var firstStartedMs: Double?
  package var lastStartedMs: Double?
  /// Sessions with more events than any gesture has, biggest first.
  package var suspects: [SuspectSession] = []
  /// By `QATally.allCases` index: the checklist's counts that are not a rule's.
  package var qa: [SessionTally] = Array(repeating: SessionTally(), count: QATally.allCases.count)
  /// The checklist's figures beside its counts: the worst drag of any pull, completed
  /// refreshes that loaded no faster than the hold, and label copy mismatches in all.
  package var worstSampleGapMs: Double?
  package var worstOffsetError: Double?
  package var slowLoads = 0
  package var labelViolations = 0

  package init() {}

  /// Counts one session, judged with `profile`.
  package mutating func add(_ session: SessionRecord, profile: DigestProfile) {
    let m = session.metrics
    sessions += 1
    switch m.outcome {
    case .completed: completed += 1
    case .cancelled: cancelled += 1
    case .incomplete: incomplete += 1
    case .abandoned: abandoned += 1
    }
    for (index, metric) in Self.valueMetrics.enumerated() {
      if let value = metric.value(m) { values[index].append(value) }
    }
    if let release = m.releaseDistance { releases.append(release) }
    for (index, metric) in Self.rateMetrics.enumerated() {
      guard let flag = metric.flag(m) else { continue }
      rates[index].denominator += 1
      if flag { rates[index].numerator += 1 }
    }
    for (index, rule) in ProfileRule.allCases.enumerated() {
      guard let failed = RuleEvaluator.verdict(rule, session, cacheScreens: profile.cacheScreens) else { continue }
      rules[index].add(failed: failed, id: session.sessionID)
    }
    addChecklistFigures(session, profile: profile)
    include(startedAtMs: session.startedAtMs)
    if session.eventCount > SessionSize.suspectEventCount {
      SuspectSession.insert(SuspectSession(sessionID: session.sessionID, events: session.eventCount), into: &suspects)
    }
  }

  private mutating func addChecklistFigures(_ session: SessionRecord, profile: DigestProfile) {
    let m = session.metrics
    for (index, item) in QATally.allCases.enumerated() {
      guard let failed = item.verdict(session, profile: profile) else { continue }
      qa[index].add(failed: failed, id: session.sessionID)
    }
    worstSampleGapMs = Self.larger(worstSampleGapMs, m.maxSampleGapMs)
    worstOffsetError = Self.larger(worstOffsetError, m.maxOffsetError)
    if m.outcome == .completed, (m.loadMs ?? 0) >= profile.minHoldMs { slowLoads += 1 }
    labelViolations += m.labelViolations ?? 0
  }

  private static func larger(_ a: Double?, _ b: Double?) -> Double? {
    guard let a, let b else { return a ?? b }
    return Swift.max(a, b)
  }

  /// Adds the sessions of `other`, a digest of other sessions.
  package mutating func merge(_ other: SessionDigest) {
    sessions += other.sessions
    completed += other.completed
    cancelled += other.cancelled
    incomplete += other.incomplete
    abandoned += other.abandoned
    for index in values.indices { values[index] += other.values[index] }
    releases += other.releases
    for index in rates.indices {
      rates[index].numerator += other.rates[index].numerator
      rates[index].denominator += other.rates[index].denominator
    }
    for index in rules.indices { rules[index].merge(other.rules[index]) }
    for index in qa.indices { qa[index].merge(other.qa[index]) }
    worstSampleGapMs = Self.larger(worstSampleGapMs, other.worstSampleGapMs)
    worstOffsetError = Self.larger(worstOffsetError, other.worstOffsetError)
    slowLoads += other.slowLoads
    labelViolations += other.labelViolations
    if let first = other.firstStartedMs { include(startedAtMs: first) }
    if let last = other.lastStartedMs { include(startedAtMs: last) }
    for suspect in other.suspects { SuspectSession.insert(suspect, into: &suspects) }
  }

  private mutating func include(startedAtMs: Double) {
    firstStartedMs = Swift.min(firstStartedMs ?? startedAtMs, startedAtMs)
    lastStartedMs = Swift.max(lastStartedMs ?? startedAtMs, startedAtMs)
  }

  /// The sessions' values of `metric`, a distribution metric.
  package func values(of metric: ParityMetric) -> [Double] {
    values[Self.valueMetrics.firstIndex(of: metric)!]
  }

  package func rate(of metric: ParityMetric) -> Rate { rates[Self.rateMetrics.firstIndex(of: metric)!] }

  package func tally(of rule: ProfileRule) -> SessionTally { rules[ProfileRule.allCases.firstIndex(of: rule)!] }

  package func tally(of item: QATally) -> SessionTally { qa[QATally.allCases.firstIndex(of: item)!] }
}
