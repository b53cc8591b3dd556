/// One colour per platform across every chart of a report, as a CSS class (`c0`…`c5`) so the
/// style sheet, not the markup, holds the colours and dark mode can change them.
struct ChartPalette {
  static let size = 6
  private var indices: [String: Int] = [:]

  /// The platforms of the three seed clients keep fixed colours; others follow in name order.
  init(platforms: [String]) {
    let known = ["pwa": 0, "ios": 1, "android": 2]
    var next = known.count
    for platform in Set(platforms).sorted() {
      if let index = known[platform] {
        indices[platform] = index
      } else {
        indices[platform] = next % Self.size
        next += 1
      }
    }
  }

  func cssClass(_ platform: String) -> String {
    "c\(indices[platform] ?? 0)"
  }
}
