internal import PullParityCore

/// A parser and the contract's rules together: a line of bytes to an event, a blank, or a
/// rejection. Used on input lines and on stored raw lines alike.
package struct LineDecoder {
  private var parser: any EventLineParser

  /// A decoder on simdjson, what the product parses with; tests hand it the reference parser.
  package init(parser: any EventLineParser = SimdjsonLineParser()) {
    self.parser = parser
  }

  package mutating func decode(_ line: UnsafeRawBufferPointer, readableCount: Int) -> LineParseResult {
    guard !line.isEmpty else { return .blank }
    switch parser.decodeEvent(line, readableCount: readableCount) {
    case .success(let event): return .event(event)
    case .failure(let rejection): return .rejected(rejection)
    }
  }

  /// Decodes a whole line held in a String (stored raw lines, tests).
  package mutating func decode(_ line: String) -> LineParseResult {
    var line = line
    return line.withUTF8 { bytes in
      decode(UnsafeRawBufferPointer(bytes), readableCount: bytes.count)
    }
  }
}
