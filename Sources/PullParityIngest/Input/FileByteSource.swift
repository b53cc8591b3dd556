#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain file (or standard input) read with POSIX `read`.
package final class FileByteSource: ByteSource {
  private let fd: Int32
  private let name: String
  private let ownsDescriptor: Bool
  package private(set) var position = 0

  package init(path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw IngestError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    self.fd = fd
    self.name = path
    self.ownsDescriptor = true
  }

  package init(descriptor: Int32, name: String) {
    self.fd = descriptor
    self.name = name
    self.ownsDescriptor = false
  }

  package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
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

  /// v1.2: whether the file at `path` starts with gzip's magic bytes (1f 8b): a gzip file is
  /// recognised by its content, whatever its name. A file that cannot be read says no here;
  /// opening it names the error.
  package static func startsWithGzipMagic(path: String) -> Bool {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return false }
    defer { _ = Glibc.close(fd) }
    var magic: (UInt8, UInt8) = (0, 0)
    let n = withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 2, 0) }
    return n == 2 && magic == (0x1f, 0x8b)
  }

  package func close() {
    if ownsDescriptor { _ = Glibc.close(fd) }
  }
}
