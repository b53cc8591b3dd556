import Foundation

/// Writes to standard output or standard error, and knows whether that is a terminal.
struct FileHandleOutput {
  let handle: FileHandle
  let descriptor: Int32

  static let standardOutput = FileHandleOutput(handle: .standardOutput, descriptor: 1)
  static let standardError = FileHandleOutput(handle: .standardError, descriptor: 2)

  func write(_ text: String) { handle.write(Data(text.utf8)) }

  var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
  var wantsColor: Bool {
    isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
  }
}
