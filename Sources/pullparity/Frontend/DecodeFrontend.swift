import PullParityIngest
import PullParityReport

/// Runs `pullparity decode` on standard input and output.
struct DecodeFrontend {
  var parser: ParserKind

  func run() throws {
    let output = LineOutput()
    var stream = DecodeStream(parser: parser)
    // The lines carry raw log text and may be read in a terminal.
    try PipeDiagnostic.reporting { try stream.run { try output.write(TerminalText.jsonEscaped($0)) } }
    try output.flush()
  }
}
