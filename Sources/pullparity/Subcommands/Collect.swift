import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension PullParity {
  /// The HTTP collector is an executable of its own, `pullparity-collect`, so that building
  /// `pullparity` (the quick start's `swift run pullparity …`) never compiles the HTTP stack.
  /// `pullparity collect ARGS` becomes that program in the same process (exec): same process id,
  /// standard streams and signals, so scripts and service managers see no difference.
  struct Collect: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Receive the recorders' events over HTTP into a spool directory (and ingest it).",
      discussion: """
        Runs `pullparity-collect` with the same arguments: the one beside this executable, else the first on PATH. `swift build` builds both; `swift build --product pullparity-collect` builds the collector alone. `pullparity collect --help` shows its options.
        """)

    @Argument(parsing: .captureForPassthrough, help: "The collector's options (see `pullparity collect --help`).")
    var arguments: [String] = []

    func run() throws {
      let executable = try Self.collectorExecutable()
      let argv = [executable] + arguments
      var cArguments = argv.map { strdup($0) } + [nil]
      execv(executable, &cArguments)
      let reason = String(cString: strerror(errno))
      throw CommandError("cannot run \(executable): \(reason)")
    }

    static let executableName = "pullparity-collect"

    /// `pullparity-collect` beside this executable (a build directory, an install prefix), else
    /// the first on PATH.
    static func collectorExecutable() throws -> String {
      let manager = FileManager.default
      var folders: [String] = []
      if let own = try? manager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        folders.append((own as NSString).deletingLastPathComponent)
      }
      let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
      folders += path.split(separator: ":").map(String.init)
      for folder in folders where !folder.isEmpty {
        let candidate = (folder as NSString).appendingPathComponent(executableName)
        if manager.isExecutableFile(atPath: candidate) { return candidate }
      }
      throw CommandError(
        "no \(executableName) beside this executable or on PATH: build it with "
          + "`swift build --product \(executableName)` (or `swift build`), or install it beside `pullparity`")
    }
  }
}
