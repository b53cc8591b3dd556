#if canImport(Glibc)
  import Glibc
#endif

/// A system call on the spool failed: which, on which file, and the system's reason.
package struct SpoolError: Error, CustomStringConvertible {
  package var operation: String
  package var path: String
  package var code: Int32

  /// Captures `errno` as it is right after the failed call.
  init(_ operation: String, _ path: String, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  package var description: String {
    "\(operation) \(path): \(String(cString: strerror(code)))"
  }
}
