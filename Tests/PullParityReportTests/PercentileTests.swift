import Testing

@testable import PullParityReport

/// Percentiles by selection are the percentiles of the sorted values, exactly: any size, any
/// order, ties, runs and extremes.
@Suite struct PercentileTests {
  static let ps = [0.0, 0.05, 0.5, 0.9, 0.95, 1.0]

  /// Deterministic values: `distinct` of them at most, so that small counts give many ties.
  static func values(count: Int, distinct: UInt64, seed: UInt64) -> [Double] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((state >> 33) % distinct) / 4
    }
  }

  static let random: [[Double]] = [1, 2, 3, 7, 30, 101, 1000, 4097].flatMap { (count: Int) -> [[Double]] in
    let distincts: [UInt64] = [2, 17, 1_000_000]
    return distincts.indices.map { index in
      values(count: count, distinct: distincts[index], seed: UInt64(count * 10 + index))
    }
  }

  static let shaped: [[Double]] = [
    Array(stride(from: 0.0, to: 500.0, by: 1.0)), Array(stride(from: 500.0, to: 0.0, by: -1.0)),
    Array(repeating: 3.5, count: 64), [-1e300, 1e300, 0, -0.0, 42],
  ]

  static let cases: [[Double]] = random + shaped

  @Test(arguments: cases) func selectionGivesThePercentilesOfTheSortedValues(_ values: [Double]) {
    let sorted = values.sorted()
    #expect(Percentile.of(unsorted: values, Self.ps) == Self.ps.map { Percentile.of(sorted: sorted, $0) })
  }

  @Test func noValuesHaveNoPercentiles() {
    #expect(Percentile.of(unsorted: [], [0.5, 0.9]) == [nil, nil])
  }
}
