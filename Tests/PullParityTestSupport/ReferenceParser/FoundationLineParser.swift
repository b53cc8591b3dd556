import Foundation
package import PullParityIngest

/// The reference parser of the seam: Foundation's `JSONSerialization`, held to strict RFC 8259 and
/// to the limits of `SimdjsonLineParser`, so the two agree on every line (a fuzz test holds them
/// to it).
///
/// What it adds to `JSONSerialization`, each a case where JSONSerialization alone would differ:
/// - invalid UTF-8 is decided first (`invalidUTF8`, whatever else is wrong with the line);
/// - a NUL byte anywhere is not JSON (JSONSerialization guesses UTF-16/32 from NUL bytes);
/// - a leading byte order mark is not JSON (JSONSerialization skips it);
/// - a U+FEFF inside a string is kept: JSONSerialization drops one at the start of a string and
///   after each escape (so `"\u{FEFF}type"` would become the key `type`), so it is handed over as
///   the escape `\uFEFF`, which it keeps;
/// - a trailing comma (`{"a":1,}`, `[1,]`) is not JSON (JSONSerialization allows it);
/// - a number that overflows a double (`1e400`) in a known field is not JSON: JSONSerialization
///   converts numbers lazily and misses one under a key that is repeated later;
/// - booleans are told from numbers by their class and `objCType` (on Linux
///   `NSNumber(value: 1) as? Bool` succeeds, so a cast cannot tell them apart).
///
/// Every line first goes through `UnknownFieldReducer`, which decides strictly whether it is JSON
/// (lone surrogate escapes are not) and leaves JSONSerialization a line without what its limits
/// or rounding would get wrong: no deep nesting (it stops at 512 levels), no long numbers (it
/// rounds decimals of more than 38 digits wrongly), no values of unknown keys.
///
/// A repeated key keeps its last value: JSONSerialization fills its dictionary in document order,
/// so the last occurrence wins (tests hold it to that). Its dictionary compares keys by canonical
/// equivalence (`"é"` and `"e\u{301}"` are one key), which only matters for unknown keys: no other
/// string is canonically equivalent to one of the contract's ASCII keys.
///
/// Slow (JSONSerialization, bridging, a second pass over the bytes): test code only, the
/// reference the unit tests and the fuzzer (scripts/fuzz.sh) hold simdjson to; ingest never uses it.
package struct FoundationLineParser: EventLineParser {
  package init() {}

  package mutating func extractFields(
    _ line: UnsafeRawBufferPointer, readableCount: Int
  ) -> Result<ExtractedFields, Rejection> {
    guard String(validating: line, as: UTF8.self) != nil else {
      return .failure(LineRejection.invalidUTF8)
    }
    if Self.contains(0x00, in: line) || line.starts(with: [0xEF, 0xBB, 0xBF]) {
      return .failure(LineRejection.notJSON)
    }
    // The line as JSONSerialization sees it: unknown values made small, known numbers exact.
    guard let reduced = UnknownFieldReducer.reduce(line) else { return .failure(LineRejection.notJSON) }
    return reduced.withUnsafeBytes { extractFields(reduced: $0) }
  }

  private func extractFields(reduced line: UnsafeRawBufferPointer) -> Result<ExtractedFields, Rejection> {
    let root: Any
    do {
      let data = Self.escapingByteOrderMarks(line) ?? Data(line)
      root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      return .failure(LineRejection.notJSON)
    }
    guard Self.isStrict(line) else { return .failure(LineRejection.notJSON) }
    guard let object = root as? [String: Any] else {
      return .failure(LineRejection.notAnObject(Self.value(of: root).typeName))
    }

    var fields = ExtractedFields()
    for field in EventField.allCases where !field.isIndicatorMember {
      if let value = object[field.key] { fields[field] = Self.value(of: value) }
    }
    if let indicator = object[EventField.indicator.key] as? [String: Any] {
      for field in EventField.allCases where field.isIndicatorMember {
        if let value = indicator[field.key] { fields[field] = Self.value(of: value) }
      }
    }
    return .success(fields)
  }

  /// The class of JSONSerialization's `true` and `false`.
  private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

  private static func value(of any: Any) -> JSONValue {
    switch any {
    case is NSNull:
      return .null
    case let string as String:
      return .string(string)
    case let number as NSNumber:
      if ObjectIdentifier(type(of: number)) == booleanClass, String(cString: number.objCType) == "c" {
        return .bool(number.boolValue)
      }
      if number is NSDecimalNumber {
        // Numbers with many digits come as decimals; their text converts to the nearest double,
        // as simdjson rounds.
        return .number(Double(number.description) ?? number.doubleValue)
      }
      return .number(number.doubleValue)
    case is [Any]:
      return .array
    case is [String: Any]:
      return .object
    default:
      return .null
    }
  }

  /// The line with every raw U+FEFF inside a string replaced by the escape `\uFEFF`, which
  /// JSONSerialization keeps; nil when there is none. Outside strings (where U+FEFF is not JSON)
  /// and after a backslash (an invalid escape) the bytes are left as they are: the verdict on the
  /// line does not change, only the decoded string does.
  private static func escapingByteOrderMarks(_ line: UnsafeRawBufferPointer) -> Data? {
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    guard contains(0xEF, in: line) else { return nil }
    var output = [UInt8]()
    output.reserveCapacity(line.count + 16)
    var cursor = StringAwareCursor(line)
    while let piece = cursor.next() {
      if piece.inString, line[piece.range.lowerBound...].starts(with: mark) {
        output.append(contentsOf: Array(#"\uFEFF"#.utf8))
        cursor.resume(at: piece.range.lowerBound + mark.count)
        continue
      }
      output.append(contentsOf: line[piece.range])
    }
    return Data(output)
  }

  /// What JSONSerialization accepts but strict JSON (as simdjson reads it) does not: a trailing
  /// comma, an integer outside Int64/UInt64, a number that overflows a double. Runs on lines
  /// JSONSerialization accepted, so the structure is known to be sound otherwise.
  private static func isStrict(_ line: UnsafeRawBufferPointer) -> Bool {
    var cursor = StringAwareCursor(line)
    while let piece = cursor.next() {
      guard !piece.inString else { continue }
      let index = piece.range.lowerBound
      switch line[index] {
      case UInt8(ascii: ","):
        var next = index + 1
        while next < line.count, isWhitespace(line[next]) { next += 1 }
        if next < line.count, line[next] == UInt8(ascii: "}") || line[next] == UInt8(ascii: "]") {
          return false
        }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        var end = index
        var isInteger = true
        var hasExponent = false
        while end < line.count, isNumberByte(line[end]) {
          if line[end] == UInt8(ascii: ".") { isInteger = false }
          if line[end] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            hasExponent = true
          }
          end += 1
        }
        // Up to 18 digits always fit Int64, and no number below 1e300 without an exponent
        // overflows a double: only longer tokens or ones with an exponent need a closer look.
        if end - index > 18 || hasExponent {
          let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[index..<end]), as: UTF8.self)
          if isInteger {
            if Int64(text) == nil && UInt64(text) == nil { return false }
          } else if Double(text)?.isFinite != true {
            return false
          }
        }
        cursor.resume(at: end)
      default:
        break
      }
    }
    return true
  }

  private static func contains(_ byte: UInt8, in line: UnsafeRawBufferPointer) -> Bool {
    guard let base = line.baseAddress else { return false }
    return memchr(base, Int32(byte), line.count) != nil
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
      UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default:
      false
    }
  }
}
