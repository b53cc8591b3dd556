import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes to standard output or standard error, and knows whether that is a terminal. Every
/// command prints through here: `FileHandle.write` traps on a failed write (a full disk, a
/// closed pipe), so this writes with `write(2)` and throws `OutputError` instead.
struct FileHandleOutput {
  let descriptor: Int32
  /// What a failed write's message calls this output.
  let name: String

  static let standardOutput = FileHandleOutput(descriptor: STDOUT_FILENO, name: "standard output")
  static let standardError = FileHandleOutput(descriptor: STDERR_FILENO, name: "standard error")

  func write(_ text: String) throws(OutputError) {
    try Self.write(Array(text.utf8), to: descriptor, name: name)
  }

  func write(_ bytes: [UInt8]) throws(OutputError) {
    try Self.write(bytes, to: descriptor, name: name)
  }

  static func write(_ text: String, to descriptor: Int32, name: String) throws(OutputError) {
    try write(Array(text.utf8), to: descriptor, name: name)
  }

  /// Writes every byte to `descriptor`, retrying short writes and interrupted calls.
  static func write(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(OutputError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw OutputError(destination: name, code: errno)
      }
      offset += written
    }
  }

  var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
  var wantsColor: Bool {
    isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
  }
}
