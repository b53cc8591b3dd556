extension UnsafeRawBufferPointer {
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
