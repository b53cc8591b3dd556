#if canImport(Glibc)
  import Glibc
#endif

/// One spool file open for appending. `append` puts bytes in the page cache; only `sync` makes
/// them durable, and only then may a body be acknowledged.
struct SpoolFile {
  let path: String
  private let descriptor: Int32
  /// Bytes in the file, every body whole: a failed append is cut back to this.
  private(set) var size: Int

  /// Creates the file; one already there is an error, never appended to blindly.
  init(creating path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SpoolError("create", path) }
    self.path = path
    self.descriptor = descriptor
    self.size = 0
  }

  /// Appends `bytes` whole, or leaves the file as it was and throws.
  mutating func append(_ bytes: [UInt8]) throws {
    var done = 0
    while done < bytes.count {
      let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
      if wrote < 0 && errno == EINTR { continue }
      guard wrote > 0 else {
        let failure = SpoolError("write", path)
        // A half-written body would glue its torn last line to the next body's first.
        _ = ftruncate(descriptor, off_t(size))
        throw failure
      }
      done += wrote
    }
    size += bytes.count
  }

  /// Data (and the size) on disk; metadata such as the time stamps may wait.
  func sync() throws {
    guard fdatasync(descriptor) == 0 else { throw SpoolError("fdatasync", path) }
  }

  func close() {
    _ = Glibc.close(descriptor)
  }
}
