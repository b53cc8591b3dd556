import Foundation
internal import PullParityIngest

/// Reads one flat JSON object (a row of a distributed run's table, as Spark's JSON writer puts it
/// on one line) without Foundation's decoder: `load` reads a million event rows per million
/// events, and `JSONDecoder` was most of its time. Strict: anything but an object of scalar
/// values with plain keys (no escapes in a key) is `nil`, and the caller then decodes the line
/// with `JSONDecoder`, for its error or for what this reader does not take.
struct FlatRowScanner {
  enum Value {
    /// The text's bytes, escapes resolved: valid UTF-8 (checked). They are in the line or in
    /// the scanner's scratch, lent for the call of the field's `body` only: keep a copy.
    case string(UnsafeRawBufferPointer)
    /// The number's bytes as written.
    case number(UnsafeRawBufferPointer)
    case null
    case bool(Bool)
  }

  private let bytes: UnsafeRawBufferPointer
  private var index = 0
  /// Decoded bytes of a string that holds escapes (the first `scratchCount`), reused; handed
  /// on to the next line's scanner (`init(_:reusing:)`).
  private(set) var scratch: [UInt8] = []
  private var scratchCount = 0
  /// The last value read is a string decoded into `scratch` (its `.string` is a placeholder).
  private var valueInScratch = false

  /// `reusing`: the `scratch` of a scanner done with its line, so that reading many lines
  /// allocates it once.
  init(_ bytes: UnsafeRawBufferPointer, reusing scratch: consuming [UInt8] = []) {
    self.bytes = bytes
    self.scratch = scratch
  }

  /// Calls `body` with each key (its bytes) and value in order; false when the line is not a
  /// flat object this reader takes, or when `body` returns false.
  mutating func forEachField(_ body: (UnsafeRawBufferPointer, Value) -> Bool) -> Bool {
    skipWhitespace()
    guard take(UInt8(ascii: "{")) else { return false }
    skipWhitespace()
    if take(UInt8(ascii: "}")) { return atEndAfterWhitespace() }
    while true {
      skipWhitespace()
      guard let key = plainKey() else { return false }
      skipWhitespace()
      guard take(UInt8(ascii: ":")) else { return false }
      skipWhitespace()
      guard let value = value(), deliver(key, value, to: body) else { return false }
      skipWhitespace()
      if take(UInt8(ascii: ",")) { continue }
      guard take(UInt8(ascii: "}")) else { return false }
      return atEndAfterWhitespace()
    }
  }

  /// Calls `body` with the field, a string decoded into `scratch` lent for the call.
  private func deliver(
    _ key: UnsafeRawBufferPointer, _ value: Value, to body: (UnsafeRawBufferPointer, Value) -> Bool
  ) -> Bool {
    guard valueInScratch else { return body(key, value) }
    return scratch.withUnsafeBytes { body(key, .string(UnsafeRawBufferPointer(rebasing: $0[..<scratchCount]))) }
  }

  private mutating func atEndAfterWhitespace() -> Bool {
    skipWhitespace()
    return index == bytes.count
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// A key without escapes or control characters.
  private mutating func plainKey() -> UnsafeRawBufferPointer? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1])
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      index += 1
    }
    return nil
  }

  private mutating func value() -> Value? {
    valueInScratch = false
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "\""): return string().map { .string($0) }
    case UInt8(ascii: "n"): return literal("null") ? .null : nil
    case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
    case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map { .number($0) }
    default: return nil
    }
  }

  /// A number by JSON's grammar (`-? int frac? exp?`, no leading zero), as strict as `JSONDecoder`.
  private mutating func number() -> UnsafeRawBufferPointer? {
    let start = index
    _ = take(UInt8(ascii: "-"))
    if !take(UInt8(ascii: "0")) {
      guard digits() > 0 else { return nil }
    }
    if take(UInt8(ascii: ".")) {
      guard digits() > 0 else { return nil }
    }
    if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
      _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
      guard digits() > 0 else { return nil }
    }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<index])
  }

  /// Skips decimal digits; how many.
  private mutating func digits() -> Int {
    let start = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    return index - start
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// A string value: its bytes when it has no escapes, else decoded into `scratch`.
  private mutating func string() -> UnsafeRawBufferPointer? {
    index += 1
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return Self.validated(UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1]))
      }
      if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
      if byte < 0x20 { return nil }
      index += 1
    }
    return nil
  }

  /// A string with escapes, decoded into `scratch` (its first `scratchCount` bytes).
  private mutating func escapedString(from start: Int) -> UnsafeRawBufferPointer? {
    // Decoded, a string is never longer than written: room for the rest of the line is enough.
    if scratch.count < bytes.count - start { scratch = [UInt8](repeating: 0, count: bytes.count - start) }
    // Out of `self` while written through a pointer, as `self` reads on.
    var out: [UInt8] = []
    swap(&out, &scratch)
    defer { swap(&out, &scratch) }
    guard let count = out.withUnsafeMutableBytes({ decodeEscaped(from: start, into: $0) }),
      out.withUnsafeBytes({ Self.validated(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) != nil
    else { return nil }
    scratchCount = count
    valueInScratch = true
    return UnsafeRawBufferPointer(start: nil, count: 0)
  }

  /// Decodes the string begun at `start` (`index` is at its first escape) into `out`: how many
  /// bytes, or nil when it is not a JSON string. The bytes between escapes go in one copy each.
  private mutating func decodeEscaped(from start: Int, into out: UnsafeMutableRawBufferPointer) -> Int? {
    guard let line = bytes.baseAddress, let output = out.baseAddress else { return nil }
    var (run, written) = (start, 0)
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else {
        index += 1
        continue
      }
      (output + written).copyMemory(from: line + run, byteCount: index - run)
      written += index - run
      index += 1
      // The closing quote, or a control character, which JSON escapes.
      guard byte == UInt8(ascii: "\\") else { return byte == UInt8(ascii: "\"") ? written : nil }
      guard let count = unescape(into: output + written) else { return nil }
      written += count
      run = index
    }
    return nil
  }

  /// After a backslash: writes what the escape stands for at `out` (Ingest's `jsonEscape`);
  /// how many bytes, or nil for no escape of JSON.
  private mutating func unescape(into out: UnsafeMutableRawPointer) -> Int? {
    guard let (scalar, next) = bytes.jsonEscape(at: index) else { return nil }
    index = next
    var count = 0
    UTF8.encode(scalar) { unit in
      out.storeBytes(of: unit, toByteOffset: count, as: UInt8.self)
      count += 1
    }
    return count
  }

  /// `bytes` when they are valid UTF-8, checked without making a `String` of them.
  private static func validated(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    (try? UTF8Span(validating: bytes.bindMemory(to: UInt8.self).span)) != nil ? bytes : nil
  }

  /// A `.string` value's bytes as a `String` (they were validated).
  static func text(_ bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// A number's bytes as an integer: digits with an optional minus sign, else nil.
  static func int(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var value = 0
    var negative = false
    var digits = 0
    for (offset, byte) in bytes.enumerated() {
      if offset == 0, byte == UInt8(ascii: "-") {
        negative = true
        continue
      }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 18 else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    guard digits > 0 else { return nil }
    return negative ? -value : value
  }

  /// A number's bytes as a double (Java's `1.7949708E12` is JSON too). Nil for what is not
  /// plainly a double: what `JSONDecoder` refuses (`1e400` overflows, `1e-400` underflows to
  /// zero) and, not to tell the two apart, subnormals, which it takes.
  static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
    guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { return nil }
    if value.isNormal { return value }
    let mantissa = bytes.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
    return value == 0 && !mantissa.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) })
      ? value : nil
  }

  /// Whether two keys (or texts) are the same bytes.
  static func same(_ key: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
    guard key.count == other.count, let base = key.baseAddress, let otherBase = other.baseAddress else {
      return key.isEmpty && other.isEmpty
    }
    return memcmp(base, otherBase, key.count) == 0
  }

  /// Whether `key`'s bytes are `name`.
  static func same(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
    guard key.count == name.utf8CodeUnitCount, let base = key.baseAddress else {
      return key.isEmpty && name.utf8CodeUnitCount == 0
    }
    return memcmp(base, name.utf8Start, key.count) == 0
  }
}
