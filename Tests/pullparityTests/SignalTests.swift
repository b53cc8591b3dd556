import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM (`timeout`, `docker stop`) both stop an ingest after its transaction,
/// say where on standard error, and exit 128 + the signal.
@Suite(.serialized) struct SignalTests {
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalStopsAfterTheTransaction(signal: Int32, exitCode: Int32) throws {
    let dir = try TemporaryDirectory()
    let log = try CrashSafetyTests.generateLog(in: dir)
    let db = dir.path("stopped.sqlite")
    let (stdout, stderr) = (dir.path("stdout.txt"), dir.path("stderr.txt"))
    try dir.write("stdout.txt", "")
    try dir.write("stderr.txt", "")
    let process = try CrashSafetyTests.interruptedIngest(
      log: log, db: db, signal: signal, standardOutput: FileHandle(forWritingAtPath: stdout),
      standardError: FileHandle(forWritingAtPath: stderr))
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == exitCode)
    let printed = (
      out: try String(contentsOfFile: stdout, encoding: .utf8), err: try String(contentsOfFile: stderr, encoding: .utf8)
    )
    #expect(printed.err.hasPrefix("Interrupted: stopped after the transaction ending at \(log):"), "\(printed.err)")
    #expect(printed.err.hasSuffix("run the same command again to finish.\n"))
    #expect(!printed.out.contains("Interrupted"), "the summary on standard output stays a summary")
    #expect(printed.out.contains("events stored"))
    let database = try PullParityDatabase(path: db)
    #expect(try database.read { try String.fetchOne($0, sql: "SELECT status FROM ingest_runs") } == "interrupted")
    let committed = try CrashSafetyTests.linesCommitted(db)
    #expect(committed > 0 && committed < 100_000)
  }
}
