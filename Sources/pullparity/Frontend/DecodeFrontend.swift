import PullParityIngest

/// Runs `pullparity decode` on standard input and output.
struct DecodeFrontend {
  var parser: ParserKind

  func run() throws {
    let output = LineOutput()
    var stream = DecodeStream(parser: parser)
    try PipeDiagnostic.reporting { try stream.run(emit: output.write) }
    try output.flush()
  }
}
