/// Standard output for the pipe verbs: lines gathered into large writes, since a write per
/// line would cost a system call per event. The owner calls `flush()` at the end: a failed
/// write is an error, so it cannot happen silently in a deinit.
final class LineOutput {
  private var buffer: [UInt8] = []
  private let output: FileHandleOutput
  private let limit = 1 << 20

  init(_ output: FileHandleOutput = .standardOutput) {
    self.output = output
    buffer.reserveCapacity(limit + 4096)
  }

  func write(_ line: String) throws {
    try write(bytes: line.utf8)
  }

  func write(bytes line: some Sequence<UInt8>) throws {
    buffer.append(contentsOf: line)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= limit { try flush() }
  }

  func flush() throws {
    guard !buffer.isEmpty else { return }
    try output.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
