internal import CZlib

#if canImport(Glibc)
  import Glibc
#endif

/// A gzip stream (a `.gz` file, or gzip on standard input) through zlib.
final class GzipByteSource: ByteSource {
  private let file: gzFile
  private let name: String

  init(path: String) throws {
    guard let file = gzopen(path, "rb") else {
      throw IngestError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    gzbuffer(file, 1 << 20)
    self.file = file
    self.name = path
  }

  /// Reads an already open descriptor (standard input); plain data passes through unchanged.
  init(descriptor: Int32, name: String) throws {
    guard let file = gzdopen(dup(descriptor), "rb") else {
      throw IngestError.cannotOpen(path: name, reason: String(cString: strerror(errno)))
    }
    gzbuffer(file, 1 << 20)
    self.file = file
    self.name = name
  }

  var position: Int { Int(gzoffset(file)) }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
    let n = gzread(file, buffer, UInt32(min(count, Int(Int32.max))))
    guard n >= 0 else {
      var code: Int32 = 0
      let message = gzerror(file, &code).map { String(cString: $0) } ?? "unknown zlib error"
      throw IngestError.readFailed(path: name, reason: "gzip: \(message)")
    }
    // zlib reports a stream cut short only through gzerror, after returning what it could.
    if n == 0 {
      var code: Int32 = 0
      _ = gzerror(file, &code)
      if code == Z_BUF_ERROR { throw IngestError.truncated(path: name) }
    }
    return Int(n)
  }

  func close() { gzclose(file) }
}
