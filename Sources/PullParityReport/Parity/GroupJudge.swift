internal import PullParityCore

/// Judges one slice of one app's sessions: each platform summarised and held to the profile's
/// rules, and every platform compared with the reference platform.
struct GroupJudge {
  var profile: Profile
  var context: ReportContext
  var dimension = ""

  /// - Parameter byPlatform: the digest of the slice's sessions, by platform.
  func group(_ slice: String, _ byPlatform: [String: SessionDigest]) -> ParityGroup {
    let platforms = byPlatform.keys.sorted().map { summary($0, byPlatform[$0]!) }
    let reference =
      platforms.count > 1
      ? ParityReportBuilder.referencePlatform(profile: profile, among: platforms.map(\.platform)) : nil
    var comparisons: [MetricComparison] = []
    if let reference, let referenceSummary = platforms.first(where: { $0.platform == reference }) {
      let referenceDigest = byPlatform[reference]!
      for other in platforms where other.platform != reference {
        comparisons += ParityMetric.allCases.map {
          compare($0, other, byPlatform[other.platform]!, against: referenceSummary, referenceDigest)
        }
      }
    }
    return ParityGroup(
      dimension: dimension, value: slice, referencePlatform: reference, platforms: platforms,
      comparisons: comparisons)
  }

  private func summary(_ platform: String, _ digest: SessionDigest) -> PlatformSummary {
    var distributions: [String: Distribution] = [:]
    var rates: [String: Rate] = [:]
    for metric in ParityMetric.allCases {
      if metric.isRate {
        rates[metric.rawValue] = digest.rate(of: metric)
      } else {
        distributions[metric.rawValue] = Distribution(digest.values(of: metric))
      }
    }
    let rules = ProfileRule.allCases.filter { $0.applies(to: profile) }.map {
      RuleEvaluator.result($0, tally: digest.tally(of: $0), profile: profile, policy: context.policy)
    }
    return PlatformSummary(
      platform: platform, sessions: digest.sessions, completed: digest.completed, cancelled: digest.cancelled,
      incomplete: digest.incomplete, distributions: distributions, rates: rates, rules: rules)
  }

  /// A metric of `platform` against the reference: the evidence its verdict is drawn from once
  /// the whole run's figures are known (`FamilyJudgement`); a difference either way beyond the
  /// tolerance fails parity.
  private func compare(
    _ metric: ParityMetric, _ platform: PlatformSummary, _ digest: SessionDigest,
    against reference: PlatformSummary, _ referenceDigest: SessionDigest
  ) -> MetricComparison {
    let tolerance = context.tolerances.tolerance(for: metric)
    var comparison = MetricComparison(
      metric: metric, platform: platform.platform, reference: reference.platform, value: nil,
      referenceValue: nil, difference: nil, interval: nil, tolerance: tolerance, n: 0, verdict: .noData)
    var evidence: Evidence?
    if metric.isRate, let rate = platform.rate(metric), let referenceRate = reference.rate(metric) {
      comparison.value = rate.percent
      comparison.referenceValue = referenceRate.percent
      if let value = rate.percent, let referenceValue = referenceRate.percent {
        comparison.difference = value - referenceValue
      }
      comparison.n = min(rate.denominator, referenceRate.denominator)
      evidence = .rateChange(after: rate, before: referenceRate, allowed: tolerance, direction: .eitherIsWorse)
    } else if let distribution = platform.distribution(metric),
      let referenceDistribution = reference.distribution(metric)
    {
      comparison.value = distribution.p50
      comparison.referenceValue = referenceDistribution.p50
      if let value = distribution.p50, let referenceValue = referenceDistribution.p50 {
        comparison.difference = value - referenceValue
      }
      comparison.n = min(distribution.n, referenceDistribution.n)
      if comparison.n >= context.policy.minSessions {
        evidence = .shift(
          after: MedianSample(digest.values(of: metric)), before: MedianSample(referenceDigest.values(of: metric)),
          allowed: tolerance, direction: .eitherIsWorse)
      }
    }
    comparison.verdict = context.policy.judge(n: comparison.n) { false }
    if comparison.verdict.isJudged, evidence?.canBeBounded == false { comparison.verdict = .insufficientData }
    if comparison.verdict.isJudged, let evidence {
      comparison.evidence = evidence
      comparison.record(FamilyJudgement.alone(evidence))
    }
    return comparison
  }
}
