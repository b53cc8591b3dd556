/// A line the file sink could not write: which file, and what the system said.
public struct FileSinkError: Error, Equatable, Sendable, CustomStringConvertible {
  public var path: String
  /// `errno` of the failed call.
  public var code: Int32
  public var reason: String

  public init(path: String, code: Int32, reason: String) {
    self.path = path
    self.code = code
    self.reason = reason
  }

  public var description: String { "cannot write events to \(path): \(reason)" }
}
