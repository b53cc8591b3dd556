/// The walk every escaper of log text in reports shares (HTML, terminal): each Unicode scalar
/// is kept or replaced by its escape. What is escaped, and how, is the caller's; the recorder's
/// JSON quoting has its own walk, as the recorder links nothing but Core.
enum ScalarEscaping {
  /// `text` with every scalar for which `replacement` returns text replaced by it.
  static func escape(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let escaped = replacement(scalar) { out += escaped } else { out.unicodeScalars.append(scalar) }
    }
    return out
  }
}
