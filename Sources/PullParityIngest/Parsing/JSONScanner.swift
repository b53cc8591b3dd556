/// Strict RFC 8259 scanning over one line's bytes, with no limit on nesting and none on the
/// range of numbers: the rules simdjson checks, minus its limits. The bytes are known to be
/// valid UTF-8 (checked before), so only the JSON grammar is checked here.
///
/// Iterative, never recursive: a line nested a million levels deep costs a byte per level, not
/// a stack frame.
struct JSONScanner {
  let bytes: UnsafeRawBufferPointer
  private(set) var index = 0

  init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  var atEnd: Bool { index >= bytes.count }
  var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  /// Steps over `byte` (after whitespace); false when something else comes.
  mutating func expect(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard peek == byte else { return false }
    index += 1
    return true
  }

  /// Steps over one string. False when it is not a valid JSON string (control characters, bad
  /// escapes, lone surrogates).
  mutating func scanString() -> Bool {
    var ignored: [UInt8] = []
    return scanString(into: &ignored)
  }

  /// Steps over one string, appending its decoded bytes (escapes resolved) to `decoded`.
  mutating func scanString(into decoded: inout [UInt8]) -> Bool {
    guard peek == UInt8(ascii: "\"") else { return false }
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return true
      case 0x00..<0x20: return false
      case UInt8(ascii: "\\"):
        guard let scalar = scanEscape() else { return false }
        decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
      default:
        decoded.append(byte)
      }
    }
    return false
  }

  /// After a backslash: the escaped scalar, or nil for an invalid escape or a lone surrogate.
  private mutating func scanEscape() -> Unicode.Scalar? {
    guard let (scalar, next) = bytes.jsonEscape(at: index) else { return nil }
    index = next
    return scalar
  }

  /// Steps over one number (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`); returns its range.
  mutating func scanNumber() -> Range<Int>? {
    let start = index
    if peek == UInt8(ascii: "-") { index += 1 }
    if peek == UInt8(ascii: "0") {
      index += 1
    } else if !scanDigits() {
      return nil
    }
    if peek == UInt8(ascii: ".") {
      index += 1
      guard scanDigits() else { return nil }
    }
    if let e = peek, e | 0x20 == UInt8(ascii: "e") {
      index += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
      guard scanDigits() else { return nil }
    }
    return start..<index
  }

  private mutating func scanDigits() -> Bool {
    let start = index
    while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    return index > start
  }

  /// Steps over `true`, `false` or `null`.
  mutating func scanLiteral() -> Bool {
    for literal in ["true", "false", "null"] where bytes[index...].starts(with: literal.utf8) {
      index += literal.utf8.count
      return true
    }
    return false
  }

  /// Steps over one value of any depth, checking all of it.
  mutating func skipValue() -> Bool {
    var open: [UInt8] = []  // the containers entered: `[` or `{`
    while true {
      skipWhitespace()
      guard let first = peek else { return false }
      switch first {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        index += 1
        let close = first == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        skipWhitespace()
        if peek == close {
          index += 1
        } else {
          open.append(first)
          if first == UInt8(ascii: "{"), !scanMemberKey() { return false }
          continue
        }
      case UInt8(ascii: "\""): guard scanString() else { return false }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): guard scanNumber() != nil else { return false }
      default: guard scanLiteral() else { return false }
      }
      // After a value: close what ends here, then a comma leads to the next value.
      guard let next = closeContainers(&open) else { return true }
      guard next else { return false }
    }
  }

  /// Closes the containers that end after a value. nil: none is open any more (the value is
  /// complete); true: a comma (and in an object, the next key) was read; false: bad syntax.
  private mutating func closeContainers(_ open: inout [UInt8]) -> Bool? {
    while let innermost = open.last {
      skipWhitespace()
      guard let byte = peek else { return false }
      index += 1
      if byte == UInt8(ascii: ",") {
        return innermost == UInt8(ascii: "{") ? scanMemberKey() : true
      }
      let close = innermost == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      guard byte == close else { return false }
      open.removeLast()
    }
    return nil
  }

  /// `"key":` of an object member.
  private mutating func scanMemberKey() -> Bool {
    skipWhitespace()
    return scanString() && expect(UInt8(ascii: ":"))
  }
}
