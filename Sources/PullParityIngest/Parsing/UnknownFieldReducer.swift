/// Rewrites a JSON line into an equivalent one the parsers' limits cannot reject, for the
/// fields the contract reads: every value under an unknown key becomes a small value of the
/// same kind (`{}`, `[]`, `""`, `0`; literals stay), and every number under a known key becomes
/// the shortest text of the double nearest to it. The known fields of the result are exactly
/// those of the line; only the parsers' limits are gone (nesting 512 deep, integers beyond
/// 64 bits, numbers beyond a double in fields nobody reads, and Foundation's 38-digit decimals).
///
/// Whether the line is JSON at all is decided here, strictly and without limits (`JSONScanner`).
/// The simdjson parser reads only the lines its own limits rejected through this; the reference
/// parser of the tests and the fuzzer (`FoundationLineParser`) every line, so the two agree on
/// every line.
package struct UnknownFieldReducer {
  private var scanner: JSONScanner
  private var output: [UInt8] = []

  /// The rewritten line, or nil when the line is not JSON. Bytes must be valid UTF-8.
  package static func reduce(_ line: UnsafeRawBufferPointer) -> [UInt8]? {
    var reducer = UnknownFieldReducer(scanner: JSONScanner(line))
    reducer.output.reserveCapacity(min(line.count, 4096))
    return reducer.reduceRoot() ? reducer.output : nil
  }

  private mutating func reduceRoot() -> Bool {
    scanner.skipWhitespace()
    // Any other root is kept as a small value of its kind, which the parser reports as such.
    let ok = scanner.peek == UInt8(ascii: "{") ? reduceObject(indicator: false) : reduceUnknownValue()
    scanner.skipWhitespace()
    return ok && scanner.atEnd
  }

  /// An object whose members are looked up among the top-level keys, or the `indicator` members.
  private mutating func reduceObject(indicator: Bool) -> Bool {
    guard scanner.expect(UInt8(ascii: "{")) else { return false }
    output.append(UInt8(ascii: "{"))
    scanner.skipWhitespace()
    if scanner.expect(UInt8(ascii: "}")) {
      output.append(UInt8(ascii: "}"))
      return true
    }
    while true {
      scanner.skipWhitespace()
      let keyStart = scanner.index
      var key: [UInt8] = []
      guard scanner.scanString(into: &key), scanner.expect(UInt8(ascii: ":")) else { return false }
      output.append(contentsOf: scanner.bytes[keyStart..<scanner.index])
      let name = String(decoding: key, as: UTF8.self)
      let field = indicator ? EventField.indicatorMemberByKey[name] : EventField.topLevelByKey[name]
      scanner.skipWhitespace()
      let valid = if let field { reduceKnownValue(field) } else { reduceUnknownValue() }
      guard valid else { return false }
      scanner.skipWhitespace()
      guard let separator = scanner.peek else { return false }
      guard separator == UInt8(ascii: ",") || separator == UInt8(ascii: "}") else { return false }
      _ = scanner.expect(separator)
      output.append(separator)
      if separator == UInt8(ascii: "}") { return true }
    }
  }

  private mutating func reduceKnownValue(_ field: EventField) -> Bool {
    let start = scanner.index
    guard let first = scanner.peek else { return false }
    switch first {
    case UInt8(ascii: "{") where field == .indicator:
      return reduceObject(indicator: true)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard let range = scanner.scanNumber() else { return false }
      let text = String(decoding: scanner.bytes[range], as: UTF8.self)
      // Beyond a double the text stays, and both parsers reject the line as not JSON.
      if let value = Double(text), value.isFinite {
        output.append(contentsOf: Array("\(value)".utf8))
      } else {
        output.append(contentsOf: scanner.bytes[range])
      }
      return true
    case UInt8(ascii: "\""):
      guard scanner.scanString() else { return false }
      output.append(contentsOf: scanner.bytes[start..<scanner.index])
      return true
    default:
      // Containers other than `indicator` are only told by their kind; literals stay.
      return reduceUnknownValue()
    }
  }

  /// Checks one value and writes a small one of its kind.
  private mutating func reduceUnknownValue() -> Bool {
    let first = scanner.peek
    let start = scanner.index
    guard scanner.skipValue() else { return false }
    switch first {
    case UInt8(ascii: "{"): output.append(contentsOf: Array("{}".utf8))
    case UInt8(ascii: "["): output.append(contentsOf: Array("[]".utf8))
    case UInt8(ascii: "\""): output.append(contentsOf: Array("\"\"".utf8))
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      output.append(contentsOf: scanner.bytes[start..<scanner.index])
    default: output.append(UInt8(ascii: "0"))
    }
    return true
  }
}
