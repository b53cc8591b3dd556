import PullParityDistributed
import PullParityIngest

/// Runs `pullparity decode` on standard input and output.
struct DecodeFrontend {
  func run() throws {
    let output = LineOutput()
    var stream = DecodeStream()
    // Text that could act on a terminal is already encoded field by field (PipeRow).
    try PipeDiagnostic.reporting { try stream.run { try output.write(bytes: $0) } }
    try output.flush()
  }
}
