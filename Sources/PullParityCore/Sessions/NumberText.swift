/// Every number the project prints, in one place so that each format and command shows the same
/// figure the same way. Kept here, on the standard library alone, so the core needs no Foundation
/// formatter; the report's own figures (rates, tolerances, intervals) extend it in
/// `PullParityReport`.
package enum NumberText {
  /// As finding texts show numbers: whole numbers without a fraction, others to 3 decimals.
  package static func format(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 {
      return String(Int64(rounded))
    }
    return "\(rounded)"
  }

  /// One decimal, as the report's tables show figures.
  package static func oneDecimal(_ value: Double) -> String {
    let tenths = Int64((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  /// One decimal, or `–` when there is no value.
  package static func oneDecimalOrDash(_ value: Double?) -> String {
    guard let value else { return "–" }
    return oneDecimal(value)
  }

  /// One decimal with a `+` before a positive figure, or `–` when there is no value.
  package static func signed(_ value: Double?) -> String {
    guard let value else { return "–" }
    let text = oneDecimal(value)
    return value > 0 && text != "0.0" ? "+" + text : text
  }

  /// A count with thousands separators, as command-line summaries show counts: `1,234,567`.
  package static func thousands(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
  }

  /// A duration as command-line summaries show one: hundredths below 10 s, whole seconds above.
  package static func seconds(_ s: Double) -> String {
    s < 10 ? "\(Double(Int(s * 100)) / 100) s" : "\(Int(s.rounded())) s"
  }
}
