/// Text from event logs made safe for a terminal: control characters (escape sequences that
/// could retitle a window or recolour the screen) and bidirectional overrides are shown as
/// `\u{…}` instead of acting.
public enum TerminalText {
  public static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      if isInert(scalar) {
        out.unicodeScalars.append(scalar)
      } else {
        out += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return out
  }

  private static func isInert(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: false
    default: true
    }
  }
}
