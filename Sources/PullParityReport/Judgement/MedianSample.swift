/// What a median's distribution-free interval needs of a sample: its size and the sorted values
/// of the ranks around the median that any interval down to a 10⁻¹² tail can reach. Kept instead
/// of every value, so a report on millions of sessions holds a few thousand per figure.
///
/// The interval is the order-statistic one: the k-th smallest and k-th largest values, with k
/// the largest rank such that a Binomial(n, ½) count falls below it with probability at most
/// the tail (normal approximation with continuity correction; the minimum sample of 30 keeps it
/// close). It assumes nothing of the distribution's shape: a median that sits in the gap between
/// two humps (fast cached loads and slow ones) gets an interval spanning the gap.
package struct MedianSample: Equatable, Sendable {
  package private(set) var n: Int
  /// The sorted values of ranks `firstRank ..< firstRank + window.count` (0-based).
  private var window: [Double]
  private var firstRank: Int

  /// The smallest tail any interval is asked for: beyond it, p-values are reported as 0.
  static let smallestTail = 1e-12
  private static let widestZ = Normal.quantile(upperTail: smallestTail)

  package init(_ values: [Double]) {
    n = values.count
    guard n > 0 else {
      (window, firstRank) = ([], 0)
      return
    }
    let reach = Int((Self.widestZ * Double(n).squareRoot() / 2).rounded(.up)) + 2
    let lower = max(0, (n - 1) / 2 - reach)
    let upper = min(n - 1, n / 2 + reach)
    var values = values
    Percentile.select(&values, lower, in: 0..<n)
    Percentile.select(&values, upper, in: lower..<n)
    window = values[lower...upper].sorted()
    firstRank = lower
  }

  /// The median, as `Percentile` defines it (linear interpolation between the closest ranks).
  package var median: Double? {
    guard n > 0 else { return nil }
    return (value(atRank: (n - 1) / 2) + value(atRank: n / 2)) / 2
  }

  /// The interval that holds the median with probability at least 1 − 2·`tail`.
  package func interval(tail: Double) -> (low: Double, high: Double) {
    let z = Normal.quantile(upperTail: max(tail, Self.smallestTail))
    // 1-based rank k of the lower bound: P(B ≤ k − 1) ≤ tail for B ~ Binomial(n, ½).
    let k = Int((Double(n) / 2 + 0.5 - z * Double(n).squareRoot() / 2).rounded(.down))
    guard k >= 1 else { return (-.infinity, .infinity) }
    return (value(atRank: k - 1), value(atRank: n - k))
  }

  private func value(atRank rank: Int) -> Double { window[rank - firstRank] }
}
