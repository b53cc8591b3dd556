/// RFC 3339 timestamps (`2026-11-20T10:15:02.345Z`, `…+01:00`) to epoch milliseconds.
///
/// Strict on purpose: the offset is required (a local time is ambiguous, docs/events.md §9), fields are
/// range-checked, and fractions of any length are kept to the sub-millisecond.
package enum RFC3339Timestamp {
  package static func epochMilliseconds(_ text: String) -> Double? {
    var text = text
    // In place: a copy into an array cost an allocation for every timestamp of an iOS log.
    return text.withUTF8 { parse($0) }
  }

  private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
    // yyyy-mm-ddThh:mm:ss is 19 bytes; an offset needs at least one more.
    guard b.count >= 20, let t = civilTime(b) else { return nil }
    var i = 19
    guard let fractionMs = fraction(b, at: &i), let offsetMinutes = offset(b, at: i) else { return nil }
    let days = daysFromCivil(year: t.year, month: t.month, day: t.day)
    let seconds = days * 86_400 + t.hour * 3_600 + t.minute * 60 + t.second - offsetMinutes * 60
    return Double(seconds) * 1_000 + fractionMs
  }

  /// The first 19 bytes, `yyyy-mm-ddThh:mm:ss` (a `t` or a space may stand for the `T`), range-checked.
  private static func civilTime(
    _ b: UnsafeBufferPointer<UInt8>
  ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
    guard let year = digits(b, 0, 4), b[4] == UInt8(ascii: "-"),
      let month = digits(b, 5, 2), b[7] == UInt8(ascii: "-"),
      let day = digits(b, 8, 2),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
      let hour = digits(b, 11, 2), b[13] == UInt8(ascii: ":"),
      let minute = digits(b, 14, 2), b[16] == UInt8(ascii: ":"),
      let second = digits(b, 17, 2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    return (year, month, day, hour, minute, second)
  }

  /// The fraction of a second at `i`, if any, in milliseconds (every digit kept); moves `i` past
  /// it. Nil for a dot without digits.
  private static func fraction(_ b: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Double? {
    guard i < b.count, b[i] == UInt8(ascii: ".") else { return 0 }
    i += 1
    let start = i
    var milliseconds = 0.0
    var scale = 100.0
    while i < b.count, b[i] >= 48, b[i] <= 57 {
      milliseconds += Double(b[i] - 48) * scale
      scale /= 10
      i += 1
    }
    return i > start ? milliseconds : nil
  }

  /// The offset from UTC in minutes, which must end the text at `i`: `Z` or `±hh:mm`.
  private static func offset(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
    guard i < b.count else { return nil }
    switch b[i] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      return b.count == i + 1 ? 0 : nil
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard b.count == i + 6, let oh = digits(b, i + 1, 2), b[i + 3] == UInt8(ascii: ":"),
        let om = digits(b, i + 4, 2), oh <= 23, om <= 59
      else { return nil }
      return (oh * 60 + om) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
    default:
      return nil
    }
  }

  private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for i in start..<(start + count) {
      let d = Int(b[i]) - 48
      guard d >= 0, d <= 9 else { return nil }
      value = value * 10 + d
    }
    return value
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
