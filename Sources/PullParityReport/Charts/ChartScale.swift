import Foundation

/// A linear axis from data values to chart units, widened to round tick values.
struct ChartScale {
  private(set) var lower: Double
  private(set) var upper: Double
  let start: Double
  let end: Double
  private(set) var ticks: [Double] = []

  /// Covers `values` (and 0 when `includeZero`) with about `tickCount` round ticks.
  init(covering values: [Double], from start: Double, to end: Double, tickCount: Int = 5, includeZero: Bool = false) {
    self.start = start
    self.end = end
    var low = values.min() ?? 0
    var high = values.max() ?? 1
    if includeZero {
      low = min(low, 0)
      high = max(high, 0)
    }
    if high - low < 1e-9 {
      // One value: give it room either side rather than divide by zero.
      let pad = max(abs(high) * 0.1, 1)
      low -= pad
      high += pad
    }
    let step = Self.niceStep((high - low) / Double(max(tickCount, 1)))
    lower = (low / step).rounded(.down) * step
    upper = (high / step).rounded(.up) * step
    var tick = lower
    while tick <= upper + step * 1e-6 {
      ticks.append(tick)
      tick += step
    }
  }

  func position(_ value: Double) -> Double {
    start + (value - lower) / (upper - lower) * (end - start)
  }

  /// 1, 2 or 5 times a power of ten.
  static func niceStep(_ raw: Double) -> Double {
    guard raw > 0, raw.isFinite else { return 1 }
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    let normalized = raw / magnitude
    let factor: Double = normalized < 1.5 ? 1 : normalized < 3 ? 2 : normalized < 7 ? 5 : 10
    return factor * magnitude
  }
}

extension ChartScale {
  /// The end of a rate axis (percent) for rates up to `maxPercent`: the smallest of 1, 2, 2.5
  /// and 5 times a power of ten that holds it, from 1 % to 100 %. A chart of small rates is
  /// drawn on its own small axis: on a fixed 0–100 % axis a 2 % rate is a pixel wide.
  static func rateCeiling(_ maxPercent: Double) -> Double {
    guard maxPercent.isFinite, maxPercent > 1 else { return 1 }
    guard maxPercent < 100 else { return 100 }
    let magnitude = pow(10, log10(maxPercent).rounded(.down))
    let factor = [1, 2, 2.5, 5, 10].first { $0 * magnitude >= maxPercent - 1e-9 } ?? 10
    return factor * magnitude
  }
}
