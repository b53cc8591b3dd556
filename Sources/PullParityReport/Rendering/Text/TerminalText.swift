internal import Foundation

/// Text from event logs made safe for a terminal: control characters (escape sequences that
/// could retitle a window or recolour the screen) and bidirectional overrides are shown as
/// `\u{…}` instead of acting.
package enum TerminalText {
  package static func escaped(_ text: String) -> String { escape(text, keeping: []) }

  /// The same, leaving `\n`, `\r` and `\t` as they are, for formats where a quoted cell holds
  /// them (CSV).
  package static func escapedKeepingLineBreaks(_ text: String) -> String { escape(text, keeping: ["\n", "\r", "\t"]) }

  /// The same, leaving only `\n`: for messages whose lines are ours. A `\r` from the data would
  /// send the cursor back and let the rest of a line overwrite what the message said.
  package static func escapedKeepingNewlines(_ text: String) -> String { escape(text, keeping: ["\n"]) }

  /// JSON text with the scalars that act on a terminal written as `\uXXXX` escapes: still the
  /// same JSON to a parser, and inert when printed. JSON encoders escape only U+0000–001F, so
  /// DEL, the C1 controls (U+009B is a one-character CSI) and the bidirectional controls from
  /// the logs would otherwise reach a terminal that shows `--format json`.
  package static func jsonEscaped(_ json: String) -> String {
    // Each of those scalars starts with one of these bytes in UTF-8; most lines hold none.
    guard json.utf8.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return json }
    return ScalarEscaping.escape(json) { scalar in
      // Below U+0080 only DEL: the encoder escaped the C0 controls, and the layout's own line
      // breaks must stay as they are.
      guard scalar.value >= 0x7F, !isInert(scalar) else { return nil }
      let hex = String(scalar.value, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
  }

  /// `text` with the `\u{…}` escapes of `escaped` turned back into their characters, so that an
  /// id copied from any output (`a\u{0}b`) names the stored one; nil when it holds none.
  package static func unescaped(_ text: String) -> String? {
    guard text.contains("\\u{") else { return nil }
    var out = ""
    var rest = Substring(text)
    while let start = rest.range(of: "\\u{") {
      out += rest[..<start.lowerBound]
      let digits = rest[start.upperBound...].prefix { $0.isHexDigit }
      let close = digits.endIndex
      if close < rest.endIndex, rest[close] == "}", digits.count <= 6, let value = UInt32(digits, radix: 16),
        let scalar = Unicode.Scalar(value), !isInert(scalar)
      {
        out.unicodeScalars.append(scalar)
        rest = rest[rest.index(after: close)...]
      } else {
        out += rest[start]
        rest = rest[start.upperBound...]
      }
    }
    return out + rest
  }

  /// How `scalar` is shown: nil when it is inert and kept as it is. Also the HTML report's
  /// rule for control characters, so a page printed to a terminal is as safe as text.
  static func shown(_ scalar: Unicode.Scalar) -> String? {
    isInert(scalar) ? nil : "\\u{" + String(scalar.value, radix: 16) + "}"
  }

  private static func escape(_ text: String, keeping kept: Set<Unicode.Scalar>) -> String {
    ScalarEscaping.escape(text) { scalar in kept.contains(scalar) ? nil : shown(scalar) }
  }

  private static func isInert(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: false
    default: true
    }
  }
}
