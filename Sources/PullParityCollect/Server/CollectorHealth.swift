import Foundation
import NIOConcurrencyHelpers

/// What `/health` reports beyond the spool's own counts: how the scheduled ingest is doing, and
/// how much room the spool's disk has left. Shared by the scheduler (which writes) and the
/// route (which reads).
package final class CollectorHealth: Sendable {
  /// Scheduled ingest failing this many rounds in a row makes the collector unhealthy: one
  /// failure is often a writer holding the database a moment too long, and the next round
  /// retries; three are not a moment.
  static let ingestFailuresTolerated = 2

  private struct Ingest {
    var consecutiveFailures = 0
    var lastError: String?
    var lastSuccess: Date?
  }

  private let ingest = NIOLockedValueBox(Ingest())
  /// Less free space than this on the spool's file system makes the collector unhealthy.
  let minimumFreeBytes: Int

  init(minimumFreeBytes: Int) {
    self.minimumFreeBytes = minimumFreeBytes
  }

  func ingestSucceeded(at date: Date = Date()) {
    ingest.withLockedValue { $0 = Ingest(lastSuccess: date) }
  }

  func ingestFailed(_ error: any Error) {
    ingest.withLockedValue {
      $0.consecutiveFailures += 1
      $0.lastError = "\(error)"
    }
  }

  /// When the last scheduled ingest round that did not fail ended, if one did.
  var lastIngestSuccess: Date? { ingest.withLockedValue { $0.lastSuccess } }

  /// The problems to report, and the figures `/health` shows.
  func report(spool: SpoolCounts, directory: String) -> HealthReport {
    let (failures, lastError, lastSuccess) = ingest.withLockedValue {
      ($0.consecutiveFailures, $0.lastError, $0.lastSuccess)
    }
    var problems: [String] = []
    if let failure = spool.writeFailure { problems.append("the spool cannot be written: \(failure)") }
    let free = Self.freeBytes(directory)
    if let free, free < minimumFreeBytes {
      problems.append("the spool's disk has \(free) bytes free, less than the \(minimumFreeBytes) kept in reserve")
    }
    if failures > Self.ingestFailuresTolerated, let lastError {
      problems.append("scheduled ingest failed \(failures) times in a row: \(lastError)")
    }
    return HealthReport(
      status: problems.isEmpty ? "ok" : "failing", problems: problems, bodies: spool.bodies, bytes: spool.bytes,
      syncs: spool.syncs, filesClosed: spool.filesClosed, freeBytes: free,
      lastIngest: lastSuccess.map { $0.ISO8601Format() }, ingestFailuresInARow: failures)
  }

  /// Bytes an unprivileged writer may still use on the file system of `path`.
  static func freeBytes(_ path: String) -> Int? {
    var stats = statvfs()
    guard statvfs(path, &stats) == 0 else { return nil }
    return Int(stats.f_bavail) * Int(stats.f_frsize)
  }
}

/// `/health`'s body.
struct HealthReport: Encodable {
  var status: String
  var problems: [String]
  var bodies: Int
  var bytes: Int
  var syncs: Int
  var filesClosed: Int
  var freeBytes: Int?
  var lastIngest: String?
  var ingestFailuresInARow: Int

  enum CodingKeys: String, CodingKey {
    case status, problems, bodies, bytes, syncs
    case filesClosed = "files_closed"
    case freeBytes = "free_bytes"
    case lastIngest = "last_ingest"
    case ingestFailuresInARow = "ingest_failures_in_a_row"
  }

  /// Every key, null when unknown (a monitor reads a missing key as a change of format).
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(status, forKey: .status)
    try container.encode(problems, forKey: .problems)
    try container.encode(bodies, forKey: .bodies)
    try container.encode(bytes, forKey: .bytes)
    try container.encode(syncs, forKey: .syncs)
    try container.encode(filesClosed, forKey: .filesClosed)
    try container.encode(freeBytes, forKey: .freeBytes)
    try container.encode(lastIngest, forKey: .lastIngest)
    try container.encode(ingestFailuresInARow, forKey: .ingestFailuresInARow)
  }
}
