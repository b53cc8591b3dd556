/// Text from event logs (app names, platforms, labels, screens) is untrusted: everything the
/// HTML report prints goes through here, in element content and in quoted attributes alike.
enum HTMLEscaping {
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(character)
      }
    }
    return out
  }
}
