import PullParityReport

/// Inputs a run could not read to their end, as `ingest` and `load` both report them on
/// standard error: a line each, escaped, since the messages quote file names.
enum InputErrorLines {
  static func text(_ messages: [String]) -> String {
    messages.map { "Error: " + TerminalText.escaped($0) + "\n" }.joined()
  }
}
