import PullParityDistributed
import PullParityIngest
import PullParityReport

/// An input error of a pipe verb, with the input's text escaped for the terminal it is shown on.
struct PipeDiagnostic: Error, CustomStringConvertible {
  let description: String

  init(_ error: PipeFormatError) {
    description = TerminalText.escaped(error.description)
  }

  /// Runs `body`, turning the input errors it throws into diagnostics.
  static func reporting<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as PipeFormatError {
      throw PipeDiagnostic(error)
    }
  }
}
