/// A line of a pipe verb's input that is not in the format the verb reads: the input is not
/// what the pipeline promised (unlike a bad log line, which is a rejection), so the verb stops.
public struct PipeFormatError: Error, Equatable, CustomStringConvertible {
  /// Where the input came from (`-` for standard input) and the 1-based line.
  public var input: String
  public var line: Int
  public var message: String

  public init(input: String, line: Int, message: String) {
    self.input = input
    self.line = line
    self.message = message
  }

  public var description: String { "\(input):\(line): \(message)" }
}
