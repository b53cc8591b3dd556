package import Foundation

/// Runs the built `pullparity` binary and collects what it printed.
package struct CommandRun: Sendable {
  package var exitCode: Int32
  package var stdout: String
  package var stderr: String

  package static func pullparity(
    _ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil,
    environment: [String: String] = [:], standardOutput: FileHandle? = nil
  ) throws -> CommandRun {
    try run(
      RepositoryPaths.executable, arguments, stdin: stdin, currentDirectory: currentDirectory,
      environment: environment, standardOutput: standardOutput)
  }

  /// Runs the built `pullparity` as the user and group `uid` (needs root; `setpriv`).
  package static func pullparity(
    asUser uid: Int, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> CommandRun {
    try run(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", RepositoryPaths.executable.path] + arguments,
      environment: environment)
  }

  package static func run(
    _ executable: URL, _ arguments: [String], stdin: Data? = nil, currentDirectory: URL? = nil,
    environment: [String: String] = [:], standardOutput: FileHandle? = nil
  ) throws -> CommandRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    // A given handle (a device, a closed pipe) takes standard output; `stdout` is then empty.
    process.standardOutput = standardOutput ?? out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if standardOutput != nil { try out.fileHandleForWriting.close() }
    // Both pipes are read at once, each on a thread of its own, while the input is written:
    // a child that fills one pipe (64 KiB) while the other is being read would never finish.
    let outData = PipeDrain(out.fileHandleForReading)
    let errData = PipeDrain(err.fileHandleForReading)
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return CommandRun(
      exitCode: process.terminationStatus, stdout: String(decoding: outData.wait(), as: UTF8.self),
      stderr: String(decoding: errData.wait(), as: UTF8.self))
  }
}

/// A pipe read to its end on a thread of its own; `wait()` returns what it held.
private final class PipeDrain: @unchecked Sendable {
  // Written once by the reading thread before `done` is signalled, read only after it.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}
