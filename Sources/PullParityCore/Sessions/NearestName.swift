/// The known name a mistyped one most likely meant, for "did you mean …?" in error messages
/// (filter values, profile file keys). Kept in the core so every module suggests the same way.
package enum NearestName {
  /// The same name but for case, else the closest one at most two edits away.
  package static func nearest(_ value: String, among known: [String]) -> String? {
    if let same = known.first(where: { $0.lowercased() == value.lowercased() }) { return same }
    return known.map { ($0, editDistance(value.lowercased(), $0.lowercased())) }
      .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
  }

  /// Levenshtein distance over characters, one row at a time.
  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}
