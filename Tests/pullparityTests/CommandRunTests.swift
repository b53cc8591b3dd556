import Foundation
import PullParityTestSupport
import Testing

/// The helper every end-to-end test runs the binary through reads both pipes at once: a child
/// that writes more than a pipe holds (64 KiB) to standard error before it ends its standard
/// output must not block.
@Suite struct CommandRunTests {
  @Test(.timeLimit(.minutes(1))) func aMebibyteOnStandardErrorFinishes() throws {
    let script = "head -c 1048576 /dev/zero | tr '\\0' e >&2; head -c 1048576 /dev/zero | tr '\\0' o; echo end"
    let run = try CommandRun.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
    #expect(run.exitCode == 0)
    #expect(run.stderr.utf8.count == 1 << 20 && run.stderr.allSatisfy { $0 == "e" })
    #expect(run.stdout.utf8.count == (1 << 20) + 4 && run.stdout.hasSuffix("oend\n"))
  }
}
