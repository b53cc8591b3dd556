import PullParityCore
import PullParityIngest

/// Runs `pullparity derive` on standard input and output.
struct DeriveFrontend {
  var profiles: ProfileCatalog
  var parser: ParserKind

  func run() throws {
    let output = LineOutput()
    var stream = DeriveStream(profiles: profiles, parser: parser)
    try PipeDiagnostic.reporting { _ = try stream.run(emit: output.write) }
    try output.flush()
  }
}
