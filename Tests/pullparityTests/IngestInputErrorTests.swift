import Foundation
import PullParityTestSupport
import Testing

/// An input that cannot be read to its end is named on stderr and makes `ingest` exit 2; the
/// other inputs are still ingested. A line over `--max-line-bytes` is only quarantined.
@Suite struct IngestInputErrorTests {
  static let event =
    #"{"event_id":"e1","session_id":"s","ts":1795000000000,"platform":"ios","app":"padel","type":"pull_start"}"#

  @Test func aUTF16InputIsNamedWithExitTwoAndTheOthersAreStored() throws {
    let dir = try TemporaryDirectory()
    var wide = Data([0xFF, 0xFE])
    wide.append((Self.event + "\n").data(using: .utf16LittleEndian)!)
    let widePath = try dir.write("wide.jsonl", wide)
    let plain = try dir.write("plain.jsonl", Self.event + "\n")
    let run = try CommandRun.pullparity(["ingest", "--quiet", "--db", dir.path("db.sqlite"), widePath, plain])
    #expect(run.exitCode == 2)
    #expect(
      run.stderr.contains("Error: \(widePath): the file is UTF-16 (little-endian), not UTF-8"), "\(run.stderr)")
    #expect(run.stdout.contains("events stored       1"), "\(run.stdout)")
  }

  @Test func aLineOverMaxLineBytesIsQuarantinedAndTheRunSucceeds() throws {
    let dir = try TemporaryDirectory()
    let long = "{\"pad\":\"" + String(repeating: "x", count: 500) + "\"}"
    let path = try dir.write("long.jsonl", long + "\n" + Self.event + "\n")
    let run = try CommandRun.pullparity([
      "ingest", "--quiet", "--max-line-bytes", "300", "--db", dir.path("db.sqlite"), path,
    ])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("events stored       1"), "\(run.stdout)")
    #expect(run.stdout.contains("long.jsonl:1: too_long: the line is 510 bytes, longer than the limit of 300"))
  }
}
