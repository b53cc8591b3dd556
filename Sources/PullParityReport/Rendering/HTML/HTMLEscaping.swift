/// Text from event logs (app names, platforms, labels, screens) is untrusted: everything the
/// HTML report prints goes through here, in element content and in quoted attributes alike.
/// Control characters and bidirectional overrides are shown as `\u{…}`, as in text output:
/// a page printed to a terminal (`--format html` without `--output`) must not act on it.
enum HTMLEscaping {
  static func escape(_ text: String) -> String {
    ScalarEscaping.escape(text) { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      case "\"": "&quot;"
      case "'": "&#39;"
      default: TerminalText.shown(scalar)
      }
    }
  }
}
