extension UnsafeRawBufferPointer {
  /// The one JSON un-escaper: what the escape whose letter (after the backslash) is at `index`
  /// stands for, and the index after it (a `\uD83D\uDE00` pair is one scalar), or nil for no
  /// escape of JSON or a lone surrogate. Shared by the scanners that read JSON strings.
  package func jsonEscape(at index: Int) -> (scalar: Unicode.Scalar, next: Int)? {
    guard index >= 0, index < count else { return nil }
    let escape = self[index]
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return (Unicode.Scalar(escape), index + 1)
    case UInt8(ascii: "b"): return ("\u{08}", index + 1)
    case UInt8(ascii: "f"): return ("\u{0C}", index + 1)
    case UInt8(ascii: "n"): return ("\n", index + 1)
    case UInt8(ascii: "r"): return ("\r", index + 1)
    case UInt8(ascii: "t"): return ("\t", index + 1)
    case UInt8(ascii: "u"):
      guard let unit = jsonHex4(at: index + 1) else { return nil }
      guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit).map { ($0, index + 5) } }
      let low = index + 5
      guard low + 1 < count, self[low] == UInt8(ascii: "\\"), self[low + 1] == UInt8(ascii: "u"),
        let second = jsonHex4(at: low + 2), (0xDC00...0xDFFF).contains(second),
        let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00))
      else { return nil }
      return (scalar, low + 6)
    default: return nil
    }
  }

  /// The value of the four hex digits of a JSON `\uXXXX` escape that start at `index`, or nil
  /// when there are not four hex digits there: shared by the scanners that read JSON strings.
  package func jsonHex4(at index: Int) -> UInt32? {
    guard index >= 0, index + 4 <= count else { return nil }
    var value: UInt32 = 0
    for byte in self[index..<index + 4] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
