import PullParityTestSupport
import Testing

@testable import PullParityReport

/// The statistics every gate's verdicts are drawn from, against values computed independently
/// (Python's `statistics.NormalDist`, asked for lower tails so that 1 − tail loses no digits; the score intervals with the restricted likelihood
/// maximised numerically rather than by Farrington and Manning's closed form).
@Suite struct JudgementTests {
  @Test(arguments: [(0.025, 1.959_963_984_540_054), (0.005, 2.575_829_303_548_9), (1e-10, 6.361_340_902_404_056)])
  func normalQuantile(tail: Double, z: Double) {
    #expect(abs(Normal.quantile(upperTail: tail) - z) < 1e-9)
    #expect(abs(Normal.upperTail(z) - tail) < tail * 1e-9)
    // 1 − tail is exact in binary only for tails that are not tiny.
    if tail > 1e-3 { #expect(abs(Normal.quantile(upperTail: 1 - tail) + z) < 1e-9) }
  }

  struct ScoreCase: Sendable, CustomTestStringConvertible {
    var after: Rate
    var before: Rate
    var z: Double
    var low: Double
    var high: Double
    var testDescription: String {
      "\(after.numerator)/\(after.denominator) vs \(before.numerator)/\(before.denominator)"
    }
  }

  /// z against no change, and the 95 % interval of the change in points.
  static let scoreCases = [
    ScoreCase(
      after: Rate(numerator: 10, denominator: 500), before: Rate(numerator: 0, denominator: 500),
      z: 3.176_619_086_695_387, low: 1.089_596_110, high: 3.643_067_651),
    ScoreCase(
      after: Rate(numerator: 30, denominator: 100), before: Rate(numerator: 10, denominator: 100),
      z: 3.526_683_972, low: 9.177_104_690, high: 30.871_972_390),
  ]

  @Test(arguments: scoreCases)
  func scoreInterval(_ c: ScoreCase) {
    let score = RateScore(after: c.after, before: c.before)
    #expect(abs(score.z(0) - c.z) < 1e-6)
    let (low, high) = score.interval(tail: 0.025)
    #expect(abs(low * 100 - c.low) < 1e-6)
    #expect(abs(high * 100 - c.high) < 1e-6)
  }

  @Test func scoreOfNoEventsIsNoEvidence() {
    let none = Rate(numerator: 0, denominator: 500)
    #expect(RateScore(after: none, before: none).z(0) == 0)
    #expect(!Evidence.rateChange(after: none, before: none, allowed: 0, direction: .higherIsWorse).isTestable)
  }

  /// 1…100: at a 2.5 % tail the ranks are 40 and 61 (P(B ≤ 39) = 1.8 %, P(B ≤ 40) = 2.8 % for
  /// B ~ Binomial(100, ½)).
  @Test func medianIntervalIsOrderStatistics() {
    let sample = MedianSample((1...100).reversed().map(Double.init))
    #expect(sample.median == 50.5)
    let interval = sample.interval(tail: 0.025)
    #expect(interval.low == 40 && interval.high == 61)
    #expect(MedianSample([1, 2, 3]).interval(tail: 0.025) == (-.infinity, .infinity))
  }

  /// A median in the gap between two humps (cached loads ~400 ms, fetched ones ~2000 ms) has an
  /// interval across the gap: two samples of it never differ beyond their intervals.
  @Test func medianBetweenHumpsIsWide() {
    let fast = (0..<250).map { 300 + Double($0 % 50) * 4 }
    let slow = (0..<250).map { 1800 + Double($0 % 50) * 8 }
    let sample = MedianSample(fast + slow)
    let interval = sample.interval(tail: 0.001)
    #expect(interval.low < 500 && interval.high > 1800)
  }

  struct HolmCase: Sendable, CustomTestStringConvertible {
    var name: String
    var pValues: [Double?]
    var levels: [Double]
    var testDescription: String { name }
  }

  static let holmCases = [
    HolmCase(
      name: "two fail, then the third holds the rest to α/2", pValues: [0.01, 0.04, 0.03, 0.005],
      levels: [0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4]),
    HolmCase(name: "none fails: all at α/m", pValues: [0.5, 0.2, 0.9], levels: [0.05 / 3, 0.05 / 3, 0.05 / 3]),
    HolmCase(name: "outside the family at α", pValues: [nil, 0.001, nil], levels: [0.05, 0.05, 0.05]),
    HolmCase(name: "all fail", pValues: [0.001, 0.002], levels: [0.05 / 2, 0.05]),
  ]

  @Test(arguments: holmCases)
  func holm(_ c: HolmCase) {
    let levels = FamilyJudgement.levels(c.pValues)
    #expect(levels.count == c.levels.count)
    for (level, expected) in zip(levels, c.levels) { #expect(abs(level - expected) < 1e-15) }
  }

  /// One figure against a 0 % budget is exact and takes no share of α: ten others at p = 0.004
  /// each fail only if the exact ones are left out (0.004 > 0.05/20, ≤ 0.05/10).
  @Test func exactChecksTakeNoShare() {
    let budgeted = (0..<10).map { _ in Evidence.rate(Rate(numerator: 0, denominator: 100), budgetPercent: 0) }
    #expect(budgeted.allSatisfy { $0.isExact })
    let (judgements, summary) = FamilyJudgement.judge(budgeted.map { $0 })
    #expect(judgements.allSatisfy { $0?.verdict == .pass })
    #expect(summary == FamilyJudgement.Summary(tested: 0, exact: 10))
    let broken = Evidence.rate(Rate(numerator: 1, denominator: 500), budgetPercent: 0)
    #expect(broken.pValue == 0)
  }

  /// Moses' interval and the Mann–Whitney count against every pairwise difference listed and
  /// sorted (the sweep and the bisection never list them), on samples with ties.
  @Test(arguments: [(40, 50, UInt64(1)), (31, 30, 2), (60, 45, 3)])
  func shiftAgreesWithEveryDifferenceListed(n: Int, m: Int, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let after = (0..<n).map { _ in Double(Int.random(in: 0..<400, using: &random)) / 2 + 20 }
    let before = (0..<m).map { _ in Double(Int.random(in: 0..<400, using: &random)) / 2 }
    let differences = after.flatMap { a in before.map { a - $0 } }.sorted()
    let shift = Shift(after: MedianSample(after), before: MedianSample(before))
    let pairs = Double(n * m)
    let spread = (pairs * Double(n + m + 1) / 12).squareRoot()
    for tail in [0.025, 0.001] {
      let k = Int((pairs / 2 - Normal.quantile(upperTail: tail) * spread).rounded(.down))
      let interval = shift.interval(tail: tail)
      #expect(abs(interval.low - differences[k - 1]) < 1e-6 && abs(interval.high - differences[n * m - k]) < 1e-6)
    }
    for d in [-10.0, 0, 20, 35.5] {
      let (above, below) = (differences.count { $0 > d }, differences.count { $0 < d })
      #expect(abs(shift.z(above: d) - (Double(above) - pairs / 2 - 1) / spread) < 1e-9)
      #expect(abs(shift.z(below: d) - (Double(below) - pairs / 2 - 1) / spread) < 1e-9)
    }
  }

  /// A p50 between two humps moved 150 ms with the whole distribution: the two medians'
  /// intervals cannot tell it from noise, the shift's can, and two draws of one behaviour stay
  /// within it.
  @Test func aShiftBetweenHumpsIsSeen() {
    var random = SplitMix64(seed: 7)
    func release(_ moved: Double) -> MedianSample {
      MedianSample(
        (0..<500).map { index in
          let load =
            index % 2 == 0 ? Double.random(in: 150...1100, using: &random) : .random(in: 1300...3000, using: &random)
          return max(1200, load) + .random(in: 16...64, using: &random) + moved
        })
    }
    let (before, same, after) = (release(0), release(0), release(150))
    let interval = Shift(after: after, before: before).interval(tail: 0.001)
    #expect(interval.low > 130 && interval.high < 170)
    let medians = (after.interval(tail: 0.0005), before.interval(tail: 0.0005))
    #expect(medians.0.low - medians.1.high < 0)
    #expect(Evidence.shift(after: after, before: before, allowed: 100, direction: .higherIsWorse).pValue < 1e-6)
    #expect(Evidence.shift(after: same, before: before, allowed: 0, direction: .eitherIsWorse).pValue > 0.01)
  }

  /// A shift's p-value and its interval agree, ties with the limit included (the differences
  /// are multiples of ½, 15 of them zero): the interval's worse bound crosses the limit at the
  /// p-value's level, either way.
  @Test(arguments: [(15.0, MetricDirection.higherIsWorse), (-15, .lowerIsWorse)])
  func shiftPValueMatchesItsInterval(moved: Double, direction: MetricDirection) {
    let before = MedianSample((0..<400).map { 200 + Double($0) / 2 })
    let after = MedianSample((0..<400).map { 200 + moved + Double($0) / 2 })
    let evidence = Evidence.shift(after: after, before: before, allowed: 0, direction: direction)
    let p = evidence.pValue
    #expect(p > 1e-6 && p < 0.01)
    let (above, below) = (evidence.interval(level: p * 1.001), evidence.interval(level: p * 0.999))
    #expect(moved > 0 ? above.low > 0 && below.low <= 0 : above.high < 0 && below.high >= 0)
  }
}
