package import PullParityIngest

/// The parsers of the seam that tests hold to each other: ingest's own (`SimdjsonLineParser`)
/// and the reference (`FoundationLineParser`, test code only). Not a user's choice: the product
/// always parses with simdjson.
package enum ParserKind: String, CaseIterable, Sendable {
  /// simdjson through a small C++ target: what the product parses with.
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

extension LineDecoder {
  /// A decoder on parser `kind`, for tests that run every parser.
  package init(_ kind: ParserKind) {
    self.init(parser: kind.makeParser())
  }
}
