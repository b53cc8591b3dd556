/// Builds one JSON object as text, fields in the order they are added.
///
/// Written by hand rather than with `JSONSerialization`: the field order is fixed (so the same
/// event is always the same bytes, which is what ingest's duplicate check compares), and
/// numbers print as Swift's shortest round-trip text (`35.1`, `1794812512591.125`), never as
/// `35.100000000000001` or in a locale's format.
struct JSONObjectWriter {
  private(set) var text = "{"

  mutating func string(_ key: String, _ value: String?) {
    guard let value else { return }
    self.key(key)
    Self.appendQuoted(value, to: &text)
  }

  /// A non-finite number has no JSON spelling: it is written as `null`, so that ingest
  /// quarantines the line with the field named instead of the whole log failing to parse.
  mutating func number(_ key: String, _ value: Double?) {
    guard let value else { return }
    self.key(key)
    text += value.isFinite ? value.description : "null"
  }

  mutating func integer(_ key: String, _ value: Int?) {
    guard let value else { return }
    self.key(key)
    text += String(value)
  }

  mutating func bool(_ key: String, _ value: Bool?) {
    guard let value else { return }
    self.key(key)
    text += value ? "true" : "false"
  }

  mutating func object(_ key: String, _ value: JSONObjectWriter) {
    self.key(key)
    text += value.finished
  }

  var finished: String { text + "}" }

  private mutating func key(_ key: String) {
    if text.utf8.count > 1 { text += "," }
    Self.appendQuoted(key, to: &text)
    text += ":"
  }

  /// Escapes what JSON requires (quote, backslash, control characters) and nothing else:
  /// Swedish copy and emoji stay readable UTF-8 in the log.
  static func appendQuoted(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
