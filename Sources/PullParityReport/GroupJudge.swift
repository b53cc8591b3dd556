internal import PullParityCore
internal import PullParityStore

/// Judges one slice of one app's sessions: each platform summarised and held to the profile's
/// rules, and every platform compared with the reference platform.
struct GroupJudge {
  var profile: Profile
  var context: ReportContext
  var dimension = ""

  /// - Parameter byPlatform: the slice's sessions, by platform.
  func group(_ slice: String, _ byPlatform: [String: [SessionRecord]]) -> ParityGroup {
    let platforms = byPlatform.keys.sorted().map { summary($0, byPlatform[$0]!) }
    let reference = platforms.count > 1
      ? ParityReportBuilder.referencePlatform(profile: profile, among: platforms.map(\.platform)) : nil
    var comparisons: [MetricComparison] = []
    if let reference, let referenceSummary = platforms.first(where: { $0.platform == reference }) {
      for other in platforms where other.platform != reference {
        comparisons += ParityMetric.allCases.map { compare($0, other, against: referenceSummary) }
      }
    }
    return ParityGroup(
      dimension: dimension, value: slice, referencePlatform: reference, platforms: platforms,
      comparisons: comparisons)
  }

  private func summary(_ platform: String, _ sessions: [SessionRecord]) -> PlatformSummary {
    // The figures are all in the metrics, which copy without touching the sessions' strings.
    let metrics = sessions.map(\.metrics)
    var distributions: [String: Distribution] = [:]
    var rates: [String: Rate] = [:]
    for metric in ParityMetric.allCases {
      if metric.isRate {
        rates[metric.rawValue] = Rate(metrics.lazy.map(metric.flag))
      } else {
        distributions[metric.rawValue] = Distribution(metrics.compactMap(metric.value))
      }
    }
    return PlatformSummary(
      platform: platform,
      sessions: sessions.count,
      completed: metrics.count { $0.outcome == .completed },
      cancelled: metrics.count { $0.outcome == .cancelled },
      incomplete: metrics.count { $0.outcome == .incomplete },
      distributions: distributions,
      rates: rates,
      rules: RuleEvaluator.results(sessions: sessions, profile: profile, policy: context.policy))
  }

  private func compare(
    _ metric: ParityMetric, _ platform: PlatformSummary, against reference: PlatformSummary
  ) -> MetricComparison {
    let tolerance = context.tolerances.tolerance(for: metric)
    var comparison = MetricComparison(
      metric: metric, platform: platform.platform, reference: reference.platform, value: nil,
      referenceValue: nil, difference: nil, interval: nil, tolerance: tolerance, n: 0, verdict: .noData)
    if metric.isRate, let rate = platform.rate(metric), let referenceRate = reference.rate(metric) {
      comparison.value = rate.percent
      comparison.referenceValue = referenceRate.percent
      comparison.interval = RateDifference(rate, minus: referenceRate)
      comparison.difference = comparison.interval?.points
      comparison.n = min(rate.denominator, referenceRate.denominator)
      comparison.verdict = context.policy.judge(n: comparison.n) {
        comparison.interval?.exceeds(tolerance: tolerance) ?? false
      }
    } else if let distribution = platform.distribution(metric), let referenceDistribution = reference.distribution(metric) {
      comparison.value = distribution.p50
      comparison.referenceValue = referenceDistribution.p50
      if let value = distribution.p50, let referenceValue = referenceDistribution.p50 {
        comparison.difference = value - referenceValue
      }
      comparison.n = min(distribution.n, referenceDistribution.n)
      comparison.verdict = context.policy.judge(n: comparison.n) {
        abs(comparison.difference ?? 0) > tolerance + Measured.slack
      }
    }
    return comparison
  }
}
