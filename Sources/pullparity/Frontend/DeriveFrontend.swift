import PullParityCore
import PullParityDistributed
import PullParityIngest
import PullParityReport

/// Runs `pullparity derive` on standard input and output.
struct DeriveFrontend {
  var profiles: ProfileCatalog

  func run() throws {
    let output = LineOutput()
    var stream = DeriveStream(profiles: profiles)
    // The lines carry raw log text and may be read in a terminal.
    try PipeDiagnostic.reporting { _ = try stream.run { try output.write(TerminalText.jsonEscaped($0)) } }
    try output.flush()
  }
}
