internal import Foundation

/// The score statistic of a difference of two rates, `after` − `before`, against a hypothesised
/// difference δ (Miettinen and Nurminen, 1985): the variance is taken at the rates' maximum
/// likelihood under δ (Farrington and Manning's closed form), so the interval it inverts to
/// behaves at 0 % and on small samples, where the textbook one collapses. 10 stuck refreshes of
/// 500 against none of 500 is z = 3.18 against δ = 0.
struct RateScore {
  var after: Rate
  var before: Rate

  /// z at δ (a fraction, −1...1): positive when `after` − `before` exceeds δ.
  func z(_ delta: Double) -> Double {
    let n1 = Double(after.denominator)
    let n2 = Double(before.denominator)
    let p1 = after.value ?? 0
    let p2 = before.value ?? 0
    let difference = p1 - p2 - delta
    let (r1, r2) = restricted(delta, p1: p1, p2: p2, n1: n1, n2: n2)
    let variance = (r1 * (1 - r1) / n1 + r2 * (1 - r2) / n2) * (n1 + n2) / (n1 + n2 - 1)
    guard variance > 0 else { return difference > 0 ? .infinity : difference < 0 ? -.infinity : 0 }
    return difference / variance.squareRoot()
  }

  /// The interval of the difference (fractions) that holds it with probability 1 − 2·`tail`:
  /// every δ whose z lies within ±z(tail), found by bisection (z falls as δ grows).
  func interval(tail: Double) -> (low: Double, high: Double) {
    let critical = Normal.quantile(upperTail: tail)
    let estimate = (after.value ?? 0) - (before.value ?? 0)
    let edge = 1 - 1e-12
    return (
      root(from: -edge, to: estimate) { z($0) - critical },
      root(from: estimate, to: edge) { z($0) + critical }
    )
  }

  /// The δ where `f` (falling in δ) crosses 0 within the range, or the range's end it stays
  /// beyond.
  private func root(from low: Double, to high: Double, _ f: (Double) -> Double) -> Double {
    if f(low) <= 0 { return low }
    if f(high) >= 0 { return high }
    var (a, b) = (low, high)
    for _ in 0..<64 {
      let middle = (a + b) / 2
      if f(middle) > 0 { a = middle } else { b = middle }
    }
    return (a + b) / 2
  }

  /// The rates' maximum likelihood estimates under `p1` − `p2` = δ (Farrington and Manning,
  /// 1990, the root of a cubic in closed form).
  private func restricted(_ delta: Double, p1: Double, p2: Double, n1: Double, n2: Double) -> (Double, Double) {
    let theta = n2 / n1
    let a = 1 + theta
    let b = -(1 + theta + p1 + theta * p2 + delta * (theta + 2))
    let c = delta * delta + delta * (2 * p1 + theta + 1) + p1 + theta * p2
    let d = -p1 * delta * (1 + delta)
    let v = b * b * b / (27 * a * a * a) - b * c / (6 * a * a) + d / (2 * a)
    let s = max(0, b * b / (9 * a * a) - c / (3 * a)).squareRoot()
    let u = v < 0 ? -s : s
    let cosine = u == 0 ? 1 : min(1, max(-1, v / (u * u * u)))
    let w = (Double.pi + acos(cosine)) / 3
    let r1 = min(1, max(0, 2 * u * cos(w) - b / (3 * a)))
    return (r1, min(1, max(0, r1 - delta)))
  }
}
