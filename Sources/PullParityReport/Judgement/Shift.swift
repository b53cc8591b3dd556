/// How far one sample's distribution moved from another's: the Hodges–Lehmann shift (the median
/// of every difference `after − before` between their values), with Moses' distribution-free
/// interval and the Mann–Whitney test it inverts.
///
/// Why a time's change is judged by its shift and not by the difference of two medians: a p50
/// that sits between two humps (cached loads and slow ones) has an order-statistic interval
/// across the gap, and two such intervals cannot tell a 150 ms slower indicator from noise. The
/// shift is drawn from every session, not from the few ranks around the median: when a release
/// moves the whole distribution it equals the change of the p50, and its interval stays narrow
/// whatever the shape. Under the same behaviour (no shift) the test holds its level exactly as
/// the rank test it is; ties are not corrected for, and a tie with the limit counts against
/// failing, which only makes the verdict more cautious.
///
/// Differences are never listed (n·m of them): each count of differences at most `d` is one
/// sweep of the two sorted samples, and a rank's difference is found by bisection on `d`.
package struct Shift: Sendable {
  package let after: MedianSample
  package let before: MedianSample

  package init(after: MedianSample, before: MedianSample) { (self.after, self.before) = (after, before) }

  private var pairs: Double { Double(after.n) * Double(before.n) }
  /// The Mann–Whitney count's standard deviation under no shift.
  private var spread: Double { (pairs * Double(after.n + before.n + 1) / 12).squareRoot() }

  /// How strongly the differences lie above `d`: the Mann–Whitney z of the sessions of `after`
  /// moved back by `d` against `before`, a difference equal to `d` counting against it, and one
  /// more pair for continuity: the figure fails at a tail exactly when Moses' interval at that
  /// tail lies above `d` (its k-th difference does when at most k − 1 are at most `d`).
  package func z(above d: Double) -> Double {
    guard pairs > 0 else { return 0 }
    return (pairs / 2 - Double(count(atMost: d, strictly: false)) - 1) / spread
  }

  /// How strongly the differences lie below `d`, as `z(above:)`: the interval lies below `d`.
  package func z(below d: Double) -> Double {
    guard pairs > 0 else { return 0 }
    return (pairs / 2 - (pairs - Double(count(atMost: d, strictly: true))) - 1) / spread
  }

  /// The interval that holds the shift with probability at least 1 − 2·`tail` (Moses).
  package func interval(tail: Double) -> (low: Double, high: Double) {
    let z = Normal.quantile(upperTail: max(tail, MedianSample.smallestTail))
    let k = Int((pairs / 2 - z * spread).rounded(.down))
    guard k >= 1 else { return (-.infinity, .infinity) }
    return (difference(rank: k), difference(rank: Int(pairs) + 1 - k))
  }

  /// How many differences `after − before` are at most `d` (below it when `strictly`): for
  /// each value of `after`, the values of `before` at or above it minus `d`, in one sweep.
  private func count(atMost d: Double, strictly: Bool) -> Int {
    let (a, b) = (after.sorted, before.sorted)
    var total = 0
    var first = 0  // the first value of `before` that the current value of `after` reaches
    for value in a {
      let floor = value - d
      while first < b.count, strictly ? b[first] <= floor : b[first] < floor { first += 1 }
      total += b.count - first
    }
    return total
  }

  /// The `rank`-th smallest difference (1-based): bisection on `d` to a billionth of the range,
  /// then the smallest difference above the bracket's low end, so that it is one of them.
  private func difference(rank: Int) -> Double {
    let (a, b) = (after.sorted, before.sorted)
    var low = a[0] - b[b.count - 1] - 1
    var high = a[a.count - 1] - b[0]
    let precision = max(1, high - low) * 1e-9
    while high - low > precision {
      let middle = (low + high) / 2
      if count(atMost: middle, strictly: false) >= rank { high = middle } else { low = middle }
    }
    // For each value of `after`, the largest value of `before` below it minus `low`.
    var smallest = high
    var next = 0  // the first value of `before` at or above the current floor
    for value in a {
      while next < b.count, b[next] < value - low { next += 1 }
      if next > 0 { smallest = min(smallest, value - b[next - 1]) }
    }
    return smallest
  }
}
