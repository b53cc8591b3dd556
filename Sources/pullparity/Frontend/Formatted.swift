/// Numbers for command-line summaries.
enum Formatted {
  static func thousands(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
      if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
  }

  static func seconds(_ s: Double) -> String {
    s < 10 ? "\(Double(Int(s * 100)) / 100) s" : "\(Int(s.rounded())) s"
  }
}
