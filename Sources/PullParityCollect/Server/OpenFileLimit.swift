#if canImport(Glibc)
  import Glibc
#endif

/// Every connection holds a descriptor: thousands of idle ones must not use up the process's
/// soft limit (often 1,024) while the hard limit allows more.
package enum OpenFileLimit {
  /// Raises the soft limit to the hard one; returns the limit now in force.
  @discardableResult
  package static func raiseToHardLimit() -> UInt64 {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    return UInt64(limit.rlim_cur)
  }
}
