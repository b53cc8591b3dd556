/// A distribution figure's per-session values, sorted once: its median with the median's
/// distribution-free interval, and what the shift between two samples (`Shift`) is drawn from.
///
/// The median's interval is the order-statistic one: the k-th smallest and k-th largest values,
/// with k the largest rank such that a Binomial(n, ½) count falls below it with probability at
/// most the tail (normal approximation with continuity correction; the minimum sample of 30
/// keeps it close). It assumes nothing of the distribution's shape: a median that sits in the
/// gap between two humps (fast cached loads and slow ones) gets an interval spanning the gap.
package struct MedianSample: Equatable, Sendable {
  package let sorted: [Double]

  /// The smallest tail any interval is asked for: beyond it, p-values are reported as 0.
  static let smallestTail = 1e-12

  package init(_ values: [Double]) { sorted = values.sorted() }

  package var n: Int { sorted.count }

  /// The median, as `Percentile` defines it (linear interpolation between the closest ranks).
  package var median: Double? {
    guard n > 0 else { return nil }
    return (sorted[(n - 1) / 2] + sorted[n / 2]) / 2
  }

  /// The interval that holds the median with probability at least 1 − 2·`tail`.
  package func interval(tail: Double) -> (low: Double, high: Double) {
    let z = Normal.quantile(upperTail: max(tail, Self.smallestTail))
    // 1-based rank k of the lower bound: P(B ≤ k − 1) ≤ tail for B ~ Binomial(n, ½).
    let k = Int((Double(n) / 2 + 0.5 - z * Double(n).squareRoot() / 2).rounded(.down))
    guard k >= 1 else { return (-.infinity, .infinity) }
    return (sorted[k - 1], sorted[n - k])
  }
}
