import Foundation
import PullParityTestSupport
import Testing

/// `report --output PATH` replaces regular files by rename and writes through everything else.
@Suite struct OutputFileTests {
  static func report(_ output: String) throws -> CommandRun {
    try CommandRun.pullparity(["report", "--db", SampleDatabase.path, "--format", "markdown", "--output", output])
  }

  /// The file type bits of `path` itself (a link is not followed).
  static func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test func aRegularFileIsReplacedWholeAndKeepsItsPermissions() throws {
    let dir = try TemporaryDirectory()
    let path = try dir.write("parity.md", "old")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
    let run = try Self.report(path)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# Pull-to-refresh parity"))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["parity.md"], "no temporary left")
  }

  @Test func aSymlinkStaysALinkAndItsTargetIsReplaced() throws {
    let dir = try TemporaryDirectory()
    let target = try dir.write("target.md", "old")
    let link = dir.path("link.md")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.md")
    let run = try Self.report(link)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(Self.kind(link) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("# Pull-to-refresh parity"))
  }

  @Test func aDanglingSymlinkCreatesTheFileItNames() throws {
    let dir = try TemporaryDirectory()
    let link = dir.path("link.md")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "new.md")
    let run = try Self.report(link)
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(Self.kind(link) == S_IFLNK)
    #expect(try String(contentsOfFile: dir.path("new.md"), encoding: .utf8).hasPrefix("# Pull-to-refresh parity"))
  }

  @Test func aFIFOIsWrittenThroughNotReplaced() async throws {
    let dir = try TemporaryDirectory()
    let fifo = dir.path("report.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Task.detached { () -> String in
      let handle = FileHandle(forReadingAtPath: fifo)
      return String(decoding: handle?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    }
    let run = try Self.report(fifo)
    let received = await reader.value
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(received.hasPrefix("# Pull-to-refresh parity"))
    #expect(Self.kind(fifo) == S_IFIFO)
  }

  /// A device node stays one: run as root, a rename used to replace the node with a regular
  /// file and exit 0. The test makes its own /dev/full where it may (as root), so that a
  /// failing run cannot damage the real one.
  @Test func aDeviceIsWrittenThroughAndItsErrorReported() throws {
    let dir = try TemporaryDirectory()
    let own = dir.path("full")
    // 1, 7: the major and minor numbers of /dev/full.
    let device = mknod(own, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 ? own : "/dev/full"
    let run = try Self.report(device)
    #expect(run.exitCode == 2)
    #expect(run.stderr == "Error: cannot write to \(device): No space left on device\n")
    #expect(Self.kind(device) == S_IFCHR)
  }

  @Test(arguments: [
    (
      "missing/dir/parity.md",
      "Error: cannot write to missing/dir/parity.md: the directory missing/dir does not exist\n"
    ),
    (".", "Error: cannot write to .: Is a directory\n"),
  ])
  func unwritableTargetsArePlainErrors(output: String, message: String) throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity(
      ["report", "--db", SampleDatabase.path, "--output", output], currentDirectory: dir.url)
    #expect(run.exitCode == 2)
    #expect(run.stderr == message)
  }
}
