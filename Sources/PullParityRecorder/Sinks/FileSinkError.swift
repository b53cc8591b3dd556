#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// What the file sink could not do: which file, which step, and what the system said.
///
/// A ``FileEventSink`` reports each outage once, not once per line (an app logging its errors
/// would flood): the first failure, with `linesLost` nil; then nothing until a line is written
/// again, when the same failure is reported once more with the number of lines the outage lost
/// (its first line included). A failed sync or rotation is reported once until one succeeds;
/// neither loses a line.
public struct FileSinkError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The step that failed.
  public enum Operation: String, Sendable {
    /// Opening the file or appending a line: the line is lost.
    case write
    /// `fsync`: the lines written are in the system's cache, not yet on the disk.
    case sync
    /// Renaming the full file or removing the oldest rotated one: lines go on to the file.
    case rotate
  }

  public var path: String
  /// `errno` of the failed call.
  public var code: Int32
  public var reason: String
  public var operation: Operation
  /// Nil when a write outage starts; the lines it lost once a line is written again.
  public var linesLost: Int?

  public init(path: String, code: Int32, reason: String, operation: Operation = .write, linesLost: Int? = nil) {
    self.path = path
    self.code = code
    self.reason = reason
    self.operation = operation
    self.linesLost = linesLost
  }

  /// The failure `errno` describes now.
  static func system(_ operation: Operation, path: String) -> FileSinkError {
    let code = errno
    return FileSinkError(path: path, code: code, reason: String(cString: strerror(code)), operation: operation)
  }

  public var description: String {
    switch operation {
    case .write:
      guard let linesLost else { return "cannot write events to \(path): \(reason)" }
      let lines = linesLost == 1 ? "1 line" : "\(linesLost) lines"
      return "writing events to \(path) again; \(lines) lost while it failed: \(reason)"
    case .sync: return "cannot sync events to \(path): \(reason)"
    case .rotate: return "cannot rotate \(path), lines go on to it: \(reason)"
    }
  }
}
