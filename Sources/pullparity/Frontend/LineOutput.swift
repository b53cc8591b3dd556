import Foundation

/// Standard output for the pipe verbs: lines gathered into large writes, since a write per
/// line would cost a system call per event.
final class LineOutput {
  private var buffer: [UInt8] = []
  private let output: FileHandleOutput
  private let limit = 1 << 20

  init(_ output: FileHandleOutput = .standardOutput) {
    self.output = output
    buffer.reserveCapacity(limit + 4096)
  }

  deinit { flush() }

  func write(_ line: String) {
    buffer.append(contentsOf: line.utf8)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= limit { flush() }
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    output.handle.write(Data(buffer))
    buffer.removeAll(keepingCapacity: true)
  }
}
