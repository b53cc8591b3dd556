#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Appends each line, with `\n`, to a file it creates when missing: a `.jsonl` that
/// `pullparity ingest` reads as it is.
///
/// Every line is handed to the system with one `write(2)` on a descriptor opened with
/// `O_APPEND`, so nothing waits in a buffer when the app is killed and two processes appending
/// to one file cannot split each other's lines. A failure never throws into the app: the line
/// is lost, `onError` hears about it, and the next line tries to open the file again. A line
/// cut short by a failure (a full disk) is ended before the next one, so that only the cut line
/// is quarantined at ingest, not the good line glued to it.
public final class FileEventSink: EventSink {
  public let path: String
  private let onError: (@Sendable (FileSinkError) -> Void)?
  private let file = Locked(OpenFile())

  private struct OpenFile {
    var descriptor: Int32?
    var endsInCutLine = false
  }

  public init(path: String, onError: (@Sendable (FileSinkError) -> Void)? = nil) {
    self.path = path
    self.onError = onError
  }

  deinit {
    file.withLock { file in
      if let open = file.descriptor { _ = close(open) }
    }
  }

  public func write(_ line: String) {
    let failure: FileSinkError? = file.withLock { file in
      let bytes = Array(((file.endsInCutLine ? "\n" : "") + line + "\n").utf8)
      var written = 0
      do throws(FileSinkError) {
        let open: Int32
        if let existing = file.descriptor { open = existing } else { open = try openForAppending() }
        file.descriptor = open
        try append(bytes, to: open, written: &written)
        file.endsInCutLine = false
        return nil
      } catch {
        if let open = file.descriptor { _ = close(open) }
        file.descriptor = nil
        if written > 0 { file.endsInCutLine = true }
        return error
      }
    }
    if let failure { onError?(failure) }
  }

  private func openForAppending() throws(FileSinkError) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw systemError() }
    return fd
  }

  private func append(_ bytes: [UInt8], to fd: Int32, written: inout Int) throws(FileSinkError) {
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw systemError()
      }
      written += result
    }
  }

  private func systemError() -> FileSinkError {
    let code = errno
    return FileSinkError(path: path, code: code, reason: String(cString: strerror(code)))
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
