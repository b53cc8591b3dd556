import Foundation

/// Runs the built `pullparity` and measures its peak resident memory, which Foundation's
/// `Process` does not report. The test process cannot reap it with `wait4` itself: a child it
/// starts shares its memory until `exec` (vfork), and Linux keeps that high-water mark, the whole
/// test runner's, as the child's. So a small Python forks the command and reports its `wait4`.
package enum PeakMemory {
  package struct Outcome: Sendable {
    package var exitCode: Int32
    /// The command's peak resident set, in bytes (the forking Python's few MB included).
    package var bytes: Int
  }

  static let reaper = """
    import os, sys
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execv(sys.argv[1], sys.argv[1:])
    _, status, usage = os.wait4(pid, 0)
    print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
    """

  /// Runs `pullparity arguments` with its output thrown away.
  package static func pullparity(_ arguments: [String]) throws -> Outcome {
    let run = try CommandRun.run(
      URL(fileURLWithPath: "/usr/bin/python3"), ["-c", reaper, RepositoryPaths.executable.path] + arguments)
    let fields = run.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard run.exitCode == 0, fields.count == 2 else {
      throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: run.stdout + run.stderr])
    }
    return Outcome(exitCode: Int32(fields[0]), bytes: fields[1] * 1024)
  }
}
