import Foundation
import PullParityTestSupport
import Testing

/// A full disk or a reader that went away ends a command with a message, never a crash.
@Suite struct OutputFailureTests {
  static let samples = RepositoryPaths.sampleEvents.path

  /// Every command that prints, with standard output on /dev/full.
  static let commands: [[String]] = [
    ["report"], ["report", "--format", "html"], ["qa"], ["ingest", "--quiet", samples], ["session", "0c20f46e"],
    ["compare", "--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=ios"], ["replay"],
    ["profiles"], ["schema"], ["quarantine"], ["runs"],
  ]

  @Test(arguments: commands)
  func aFullDiskEndsWithAMessageAndExitTwo(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("copy.sqlite")
    try FileManager.default.copyItem(atPath: SampleDatabase.path, toPath: db)
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let arguments = command == ["profiles"] || command == ["schema"] ? command : command + ["--db", db]
    let run = try CommandRun.pullparity(arguments, standardOutput: full)
    #expect(run.exitCode == 2, "\(command): \(run.stderr)")
    #expect(run.stderr == "Error: cannot write to standard output: No space left on device\n", "\(command)")
  }

  /// `pullparity … | head` where the reader is gone before the first write and SIGPIPE is
  /// ignored (as some supervisors start their children): EPIPE ends the command quietly.
  @Test(arguments: [
    ["schema", "--sql"], ["report", "--db", SampleDatabase.path], ["qa", "--db", SampleDatabase.path],
  ])
  func aClosedPipeEndsQuietly(command: [String]) throws {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let errors = Pipe()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "trap '' PIPE; exec \"$0\" \"$@\"", RepositoryPaths.executable.path] + command
    process.standardOutput = pipe.fileHandleForWriting
    process.standardError = errors
    try process.run()
    try pipe.fileHandleForWriting.close()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "\(command): killed by a signal: \(stderr)")
    #expect(process.terminationStatus == 128 + SIGPIPE, "\(command): \(stderr)")
    #expect(stderr.isEmpty, "\(command)")
  }
}
