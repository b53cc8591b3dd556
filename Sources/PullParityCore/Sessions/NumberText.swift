/// Numbers as finding texts show them: whole numbers without a fraction, others to 3 decimals.
/// Kept here so the core needs no Foundation formatter.
package enum NumberText {
  package static func format(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 {
      return String(Int64(rounded))
    }
    return "\(rounded)"
  }
}
