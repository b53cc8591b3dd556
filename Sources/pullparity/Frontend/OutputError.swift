#if canImport(Glibc)
  import Glibc
#endif

/// A write to an output failed. The command ends with exit 2 and says so on standard error,
/// except for a reader that went away (a closed pipe, `| head`): that ends quietly, as the
/// default SIGPIPE would have.
struct OutputError: Error, CustomStringConvertible {
  var destination: String
  var code: Int32
  /// Said instead of the system's wording where that would mislead.
  var detail: String?

  var isClosedPipe: Bool { code == EPIPE }

  var description: String {
    "cannot write to \(destination): \(detail ?? String(cString: strerror(code)))"
  }
}
