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

  /// The percentiles `ps` (ascending, each 0...1) of `values` in any order: the numbers
  /// `of(sorted:)` gives on the sorted values, found by selection instead of a sort, which was
  /// most of the time of a report on a long history (millions of values per metric).
  package static func of(unsorted values: [Double], _ ps: [Double]) -> [Double?] {
    guard !values.isEmpty else { return ps.map { _ in nil } }
    var values = values
    var start = 0
    return ps.map { p in
      let rank = p * Double(values.count - 1)
      let lower = Int(rank.rounded(.down))
      select(&values, lower, in: start..<values.count)
      // Everything after `lower` is at least values[lower]: the next rank is their minimum.
      let upper = lower + 1 < values.count ? values[(lower + 1)...].min()! : values[lower]
      start = lower
      return values[lower] + (upper - values[lower]) * (rank - Double(lower))
    }
  }

  /// Puts the value of rank `k` (0-based, in ascending order) within `range` at index `k`, with
  /// no greater value before it and no smaller one after: Hoare's selection around a median of
  /// three, linear on average.
  static func select(_ values: inout [Double], _ k: Int, in range: Range<Int>) {
    var (low, high) = (range.lowerBound, range.upperBound - 1)
    while low < high {
      let pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high])
      var (i, j) = (low, high)
      while i <= j {
        while values[i] < pivot { i += 1 }
        while values[j] > pivot { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          (i, j) = (i + 1, j - 1)
        }
      }
      // low...j hold no value above the pivot, i...high none below it, and between them
      // only the pivot's value.
      if k <= j {
        high = j
      } else if k >= i {
        low = i
      } else {
        return
      }
    }
  }

  private static func medianOfThree(_ a: Double, _ b: Double, _ c: Double) -> Double {
    max(min(a, b), min(max(a, b), c))
  }
}
