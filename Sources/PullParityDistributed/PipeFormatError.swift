/// A line of a pipe verb's input that is not in the format the verb reads: the input is not
/// what the pipeline promised (unlike a bad log line, which is a rejection), so the verb stops.
package struct PipeFormatError: Error, Equatable, CustomStringConvertible {
  /// Where the input came from (`-` for standard input) and the 1-based line.
  package var input: String
  package var line: Int
  package var message: String

  package init(input: String, line: Int, message: String) {
    self.input = input
    self.line = line
    self.message = message
  }

  package var description: String { "\(input):\(line): \(message)" }
}
