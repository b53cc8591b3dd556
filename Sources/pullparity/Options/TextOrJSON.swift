import ArgumentParser
import PullParityReport

/// The output formats of the commands that print either for people or for programs.
enum TextOrJSON: String, ExpressibleByArgument, CaseIterable {
  case text
  case json

  /// `value` in this format: the stable JSON every command writes, or what `text` renders in
  /// the style standard output takes (colour only on a terminal).
  func render(_ value: some Encodable, text: (TextStyle) throws -> String) throws -> String {
    switch self {
    case .json: try JSONRendering.render(value)
    case .text: try text(TextStyle(colored: FileHandleOutput.standardOutput.wantsColor))
    }
  }
}
