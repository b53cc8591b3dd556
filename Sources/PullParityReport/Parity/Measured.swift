internal import PullParityCore

/// Rounding for machine-readable output: figures carry the precision they were measured with,
/// not the binary noise of subtracting epoch timestamps (1988.199951171875 is 1988.2 ms).
package enum Measured {
  /// Slack for comparing figures that are equal in decimal but not in binary, the same as the
  /// state machine's (`SessionMetrics.comparisonSlack`).
  static let slack = SessionMetrics.comparisonSlack

  /// Milliseconds and distances: clients log at most microsecond precision.
  package static func value(_ x: Double?) -> Double? { x.map { rounded($0, places: 3) } }

  /// Percentages and percentage points: two decimals.
  package static func percent(_ x: Double?) -> Double? { x.map { rounded($0, places: 2) } }

  static func rounded(_ x: Double, places: Int) -> Double {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return (x * scale).rounded() / scale
  }
}
