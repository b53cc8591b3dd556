/// What one figure's verdict is drawn from, whichever gate judges it: at any level α, an
/// interval, and whether the interval lies beyond what the figure is allowed. Its p-value is
/// the smallest α at which it fails; the run's family-wise control (`FamilyJudgement`) chooses
/// the α each figure is judged at.
package enum Evidence: Equatable, Sendable {
  /// A platform's rate of a rule against its budget (percent): it fails when its Wilson
  /// interval lies above the budget. Against a 0 % budget the check is exact: one break fails
  /// at every level, and no break passes.
  case rate(Rate, budgetPercent: Double)
  /// A rate's change, `after` − `before` in points, against the change allowed (points), worse
  /// the way `direction` says: Miettinen–Nurminen's score interval.
  case rateChange(after: Rate, before: Rate, allowed: Double, direction: MetricDirection)
  /// A distribution's change, `after` − `before`, against the change allowed: the shift of the
  /// whole distribution (`Shift`: Hodges–Lehmann, Moses' interval, the Mann–Whitney test).
  case shift(after: MedianSample, before: MedianSample, allowed: Double, direction: MetricDirection)
  /// An arm distance's change when the profile names the arming point: it fails when `after`
  /// lies off the point by more than `allowed` and farther from it than `before`, both beyond
  /// their intervals.
  case medianTowardTarget(after: MedianSample, before: MedianSample, target: Double, allowed: Double)

  /// A verdict that does not depend on the level: a rate against a 0 % (or a 100 %) budget.
  /// Such a check cannot raise a false alarm on faithful data, so it takes no share of the run's α.
  package var isExact: Bool {
    guard case .rate(_, let budget) = self else { return false }
    return budget <= 0 || budget >= 100
  }

  /// Whether the samples can bound the interval at all at the run's α: a median or a shift of a
  /// handful of sessions cannot (the ranks run out), and such a figure has too few sessions
  /// for a verdict, whatever `--min-sessions` allows.
  package var canBeBounded: Bool {
    let interval = self.interval(level: FamilyJudgement.alpha)
    return interval.low.isFinite && interval.high.isFinite
  }

  /// Whether any data with these margins could fail the figure: a rate change with no event on
  /// either side cannot, and takes no share of the run's α (Tarone's refinement for discrete data).
  package var isTestable: Bool {
    guard case .rateChange(let after, let before, _, _) = self else { return true }
    return after.numerator + before.numerator > 0
      && after.numerator + before.numerator
        < after.denominator + before.denominator
  }

  /// The smallest level at which the figure fails: 0 when it fails at every level, 1 when at none.
  package var pValue: Double {
    switch self {
    case .rate(let rate, let budget): return Self.pValue(rate, budget: budget / 100)
    case .rateChange(let after, let before, let allowed, let direction):
      let score = RateScore(after: after, before: before)
      let worse = Normal.upperTail(score.z(allowed / 100))
      let better = Normal.cdf(score.z(-allowed / 100))
      switch direction {
      case .higherIsWorse, .towardTarget: return worse
      case .lowerIsWorse: return better
      case .eitherIsWorse: return min(1, 2 * min(worse, better))
      }
    case .shift(let after, let before, let allowed, let direction):
      let shift = Shift(after: after, before: before)
      let worse = Normal.upperTail(shift.z(above: allowed))
      let better = Normal.upperTail(shift.z(below: -allowed))
      switch direction {
      case .higherIsWorse, .towardTarget: return worse
      case .lowerIsWorse: return better
      case .eitherIsWorse: return min(1, 2 * min(worse, better))
      }
    case .medianTowardTarget: return searchedPValue()
    }
  }

  /// The interval at level α: two-sided at 1 − 2α for a figure that can only get worse one way
  /// (its worse bound is then the level's), at 1 − α for one worse either way.
  package func interval(level alpha: Double) -> JudgedInterval {
    let tail = self.tail(alpha)
    let (low, high): (Double, Double)
    switch self {
    case .rate(let rate, _):
      let bounds = rate.wilson(z: Normal.quantile(upperTail: tail))
      (low, high) = ((bounds?.low ?? 0) * 100, (bounds?.high ?? 0) * 100)
    case .rateChange(let after, let before, _, _):
      let bounds = RateScore(after: after, before: before).interval(tail: tail)
      (low, high) = (bounds.low * 100, bounds.high * 100)
    case .shift(let after, let before, _, _):
      (low, high) = Shift(after: after, before: before).interval(tail: tail)
    case .medianTowardTarget(let after, let before, _, _):
      (low, high) = Self.difference(after, before, tail: tail)
    }
    return JudgedInterval(low: low, high: high, confidence: 1 - 2 * tail)
  }

  /// The same figure with the cohorts swapped: whether it fails says whether the change was an
  /// improvement. `nil` for a figure worse either way, which cannot improve.
  package var reversed: Evidence? {
    switch self {
    case .rate: return nil
    case .rateChange(let after, let before, let allowed, let direction):
      return direction == .eitherIsWorse
        ? nil : .rateChange(after: before, before: after, allowed: allowed, direction: direction)
    case .shift(let after, let before, let allowed, let direction):
      return direction == .eitherIsWorse
        ? nil : .shift(after: before, before: after, allowed: allowed, direction: direction)
    case .medianTowardTarget(let after, let before, let target, let allowed):
      return .medianTowardTarget(after: before, before: after, target: target, allowed: allowed)
    }
  }

  /// The level an interval of this figure was drawn at (the inverse of `interval(level:)`).
  package func level(of interval: JudgedInterval) -> Double {
    let tail = (1 - interval.confidence) / 2
    return self.tail(1) == 0.5 ? tail * 2 : tail
  }

  private func tail(_ alpha: Double) -> Double {
    if case .rateChange(_, _, _, .eitherIsWorse) = self { return alpha / 2 }
    if case .shift(_, _, _, .eitherIsWorse) = self { return alpha / 2 }
    return alpha
  }

  /// A rate against a budget (a fraction): the score test Wilson's interval inverts.
  private static func pValue(_ rate: Rate, budget: Double) -> Double {
    guard let p = rate.value else { return 1 }
    if budget <= 0 { return rate.numerator > 0 ? 0 : 1 }
    if budget >= 1 { return 1 }
    let z = (p - budget) / (budget * (1 - budget) / Double(rate.denominator)).squareRoot()
    return Normal.upperTail(z)
  }

  /// The interval of a difference of medians: each median's order-statistic interval at half
  /// the tail, so that both hold together with the probability asked.
  private static func difference(_ after: MedianSample, _ before: MedianSample, tail: Double) -> (Double, Double) {
    let a = after.interval(tail: tail / 2)
    let b = before.interval(tail: tail / 2)
    return (a.low - b.high, a.high - b.low)
  }

  /// Whether the figure fails at level α, for the figures whose p-value is searched.
  private func fails(level alpha: Double) -> Bool {
    let tail = self.tail(alpha)
    switch self {
    case .medianTowardTarget(let after, let before, let target, let allowed):
      let a = after.interval(tail: tail / 2)
      let b = before.interval(tail: tail / 2)
      // The nearest the candidate can be to the point, and the farthest the baseline can be.
      let nearest = a.low > target ? a.low - target : a.high < target ? target - a.high : 0
      let farthest = max(abs(b.low - target), abs(b.high - target))
      return nearest > allowed + Measured.slack && nearest > farthest + Measured.slack
    case .rate, .rateChange, .shift: return pValue <= alpha
    }
  }

  /// The smallest level at which `fails` holds, by bisection on a log scale (failing is
  /// monotone in the level: a lower level only widens the intervals).
  private func searchedPValue() -> Double {
    let highest = tail(1) == 0.5 ? 1.0 : 0.5
    guard fails(level: highest) else { return 1 }
    var (low, high) = (MedianSample.smallestTail, highest)
    if fails(level: low) { return 0 }
    for _ in 0..<50 {
      let middle = (low * high).squareRoot()
      if fails(level: middle) { high = middle } else { low = middle }
    }
    return high
  }
}
