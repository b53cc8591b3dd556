/// The implementations behind the parsing seam.
package enum ParserKind: String, CaseIterable, Sendable {
  /// simdjson through a small C++ target: the default, measured fastest.
  case simdjson
  /// Foundation's JSONSerialization: the plain reference the fast one is tested against.
  case foundation

  package func makeParser() -> any EventLineParser {
    switch self {
    case .simdjson: SimdjsonLineParser()
    case .foundation: FoundationLineParser()
    }
  }
}
