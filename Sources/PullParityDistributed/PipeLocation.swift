/// A line of a pipe verb's input or of a distributed run's part file.
struct PipeLocation: Equatable {
  let input: String
  let line: Int

  func error(_ message: String) -> PipeFormatError {
    PipeFormatError(input: input, line: line, message: message)
  }
}
