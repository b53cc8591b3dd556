internal import Foundation

/// The standard normal distribution: every interval of a verdict is drawn with it (Wilson's and
/// Miettinen–Nurminen's score intervals for rates, the normal approximation to the binomial for
/// the ranks of a median's interval).
enum Normal {
  /// P(Z ≤ x).
  static func cdf(_ x: Double) -> Double { 0.5 * erfc(-x / 2.0.squareRoot()) }

  /// P(Z > x), without the cancellation of 1 − cdf far in the tail.
  static func upperTail(_ x: Double) -> Double { 0.5 * erfc(x / 2.0.squareRoot()) }

  /// The z with P(Z > z) = `tail` (0 < tail < 1): Acklam's rational approximation, polished by
  /// one step of Halley's method to full double precision.
  static func quantile(upperTail tail: Double) -> Double {
    if tail <= 0 { return .infinity }
    if tail >= 1 { return -.infinity }
    let p = 1 - tail
    var x = acklam(p, lowerTail: tail > 0.5 ? p : tail)
    // cdf(x) − p, written so that a tiny tail keeps its digits.
    let e = tail - upperTail(x)
    let u = e * (2 * Double.pi).squareRoot() * exp(x * x / 2)
    x -= u / (1 + x * u / 2)
    return x
  }

  private static let a = [
    -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
    -3.066479806614716e+01, 2.506628277459239e+00,
  ]
  private static let b = [
    -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
    -1.328068155288572e+01,
  ]
  private static let c = [
    -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
    4.374664141464968e+00, 2.938163982698783e+00,
  ]
  private static let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]

  /// Acklam's approximation of the quantile of `p`; `lowerTail` is min(p, 1 − p), computed by
  /// the caller without cancellation.
  private static func acklam(_ p: Double, lowerTail: Double) -> Double {
    let pLow = 0.02425
    if lowerTail < pLow {
      let q = (-2 * log(lowerTail)).squareRoot()
      let x =
        (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
        / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
      return p < 0.5 ? x : -x
    }
    let q = p - 0.5
    let r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
      / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  }
}
