#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain file (or standard input) read with POSIX `read`.
final class FileByteSource: ByteSource {
  private let fd: Int32
  private let name: String
  private let ownsDescriptor: Bool
  private(set) var position = 0

  init(path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw IngestError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    self.fd = fd
    self.name = path
    self.ownsDescriptor = true
  }

  init(descriptor: Int32, name: String) {
    self.fd = descriptor
    self.name = name
    self.ownsDescriptor = false
  }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
    while true {
      let n = Glibc.read(fd, buffer, count)
      if n >= 0 {
        position += n
        return n
      }
      if errno == EINTR { continue }
      throw IngestError.readFailed(path: name, reason: String(cString: strerror(errno)))
    }
  }

  func close() {
    if ownsDescriptor { _ = Glibc.close(fd) }
  }
}
