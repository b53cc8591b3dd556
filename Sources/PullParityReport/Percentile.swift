/// Percentiles of per-session values (docs/events.md §6): linear interpolation between the closest
/// ranks, the definition of numpy's default and of R's type 7.
package enum Percentile {
  /// The `p`-th percentile (0...1) of `sorted`, which must be in ascending order.
  package static func of(sorted values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let rank = p * Double(values.count - 1)
    let lower = Int(rank.rounded(.down))
    let upper = min(lower + 1, values.count - 1)
    let fraction = rank - Double(lower)
    return values[lower] + (values[upper] - values[lower]) * fraction
  }
}
