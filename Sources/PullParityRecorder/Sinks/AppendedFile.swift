#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// The file sink's descriptor, opened with `O_APPEND`, and the system calls made on it; each
/// failure is a ``FileSinkError`` naming the step it belongs to.
struct AppendedFile {
  let path: String
  let descriptor: Int32

  /// Opens `path` for appending, creating it when missing.
  init(appendingTo path: String) throws(FileSinkError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .system(.write, path: path) }
    self.path = path
    descriptor = fd
  }

  func close() {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }

  /// Appends what of `bytes` is not `written` yet. One `write(2)` unless the system takes less
  /// (a full disk, a signal): `O_APPEND` puts each call's bytes at the end as one piece, so
  /// lines of another process appending to the file are never spliced into this one.
  func append(_ bytes: [UInt8], written: inout Int) throws(FileSinkError) {
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw .system(.write, path: path)
      }
      written += result
    }
  }

  func sync() throws(FileSinkError) {
    guard fsync(descriptor) == 0 else { throw .system(.sync, path: path) }
  }

  /// The file's size now, lines appended by other processes included, and whether `path`
  /// still names it: not once it was rotated (by another process sharing it, too), moved or
  /// deleted. The file cannot be replaced by one with its inode while this descriptor keeps it
  /// alive.
  func status() -> (size: Int, isAtPath: Bool) {
    var open = stat()
    var named = stat()
    guard fstat(descriptor, &open) == 0 else { return (0, false) }
    let isAtPath = stat(path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    return (Int(open.st_size), isAtPath)
  }

  /// Waits for the file's advisory lock: rotations of one file, by any process, take turns.
  func lock() throws(FileSinkError) {
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw .system(.rotate, path: path) }
    }
  }

  func unlock() {
    _ = flock(descriptor, LOCK_UN)
  }
}

/// `write(2)`, named apart from the sink's own `write(_:)`.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(fd, bytes, count)
  #else
    Darwin.write(fd, bytes, count)
  #endif
}
