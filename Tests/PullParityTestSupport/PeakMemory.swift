import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `pullparity` and measures its peak resident memory, which Foundation's
/// `Process` does not report: the child is reaped with `wait4`, whose resource usage is that one
/// process's alone (other tests' children running beside it do not count).
package enum PeakMemory {
  package struct Outcome: Sendable {
    package var exitCode: Int32
    /// The child's peak resident set, in bytes.
    package var bytes: Int
  }

  /// Runs `pullparity arguments` with its output thrown away.
  package static func pullparity(_ arguments: [String]) throws -> Outcome {
    let path = RepositoryPaths.executable.path
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: ["errno": spawned]) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1, errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, which Swift does not import: a signal reads as 128 + its number.
    let exitCode = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    return Outcome(exitCode: exitCode, bytes: usage.ru_maxrss * 1024)
  }
}
