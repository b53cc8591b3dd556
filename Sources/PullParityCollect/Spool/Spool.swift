import Foundation

/// Appends bodies to the open spool file and returns only once they are on disk.
///
/// Every change happens on one serial queue, so bodies never interleave. An append writes its
/// bytes and waits; a sync runs after the appends already queued, so one fdatasync acknowledges
/// every body written before it (group commit): under load many bodies share each sync instead
/// of each paying for its own.
package final class Spool: @unchecked Sendable {
  package let directory: SpoolDirectory
  package let limits: SpoolLimits
  /// What the start found and closed of a previous run's open file, if anything.
  package let recovery: SpoolRecovery?
  /// Bodies and bytes acknowledged, and how long each sync took (`GET /metrics`).
  let metrics = CollectorMetrics()

  private let queue = DispatchQueue(label: "pullparity.collect.spool")
  // Everything below is touched on `queue` only.
  private var file: SpoolFile?
  private var openedAt = Date()
  private var waiting: [CheckedContinuation<Void, any Error>] = []
  private var syncQueued = false
  private var sequence = 0
  private var counts = SpoolCounts()
  /// Bytes of the bodies the next sync acknowledges.
  private var pendingBytes = 0

  /// Creates the directory if needed and closes a file a previous run left open.
  package init(directory path: String, limits: SpoolLimits = .init()) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    directory = SpoolDirectory(path: path)
    self.limits = limits
    recovery = try SpoolRecovery.run(directory, sequence: &sequence)
  }

  /// Returns once `body` (with a newline added if it lacks its last) is durable in the spool.
  package func append(_ body: [UInt8]) async throws {
    guard !body.isEmpty else { return }
    try await withCheckedThrowingContinuation { continuation in
      queue.async { self.appendOnQueue(body, continuation) }
    }
  }

  /// Closes the open file if it holds anything (so it can be ingested now); `onlyWhenOld`: only
  /// if it has been open for `limits.rotateSeconds`.
  package func rotate(onlyWhenOld: Bool = false) async throws {
    try await onQueue {
      guard let file = self.file, file.size > 0 else { return }
      if onlyWhenOld && Date().timeIntervalSince(self.openedAt) < self.limits.rotateSeconds { return }
      try self.closeFileOnQueue()
    }
  }

  /// Syncs and closes the open file: called once the server has answered its last request.
  package func close() async throws {
    try await onQueue { try self.closeFileOnQueue() }
  }

  package func counts() async -> SpoolCounts {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: self.counts) }
    }
  }

  private func onQueue(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      queue.async { continuation.resume(with: Result { try work() }) }
    }
  }

  private func appendOnQueue(_ body: [UInt8], _ continuation: CheckedContinuation<Void, any Error>) {
    do {
      if file == nil {
        file = try SpoolFile(creating: directory.openFile)
        // The new name too must survive a power loss, or the synced bytes have no name.
        try directory.syncEntries()
        openedAt = Date()
      }
      try file!.append(body.last == UInt8(ascii: "\n") ? body : body + [UInt8(ascii: "\n")])
      counts.bodies += 1
      counts.bytes += body.count
      pendingBytes += body.count
    } catch {
      counts.writeFailure = "\(error)"
      continuation.resume(throwing: error)
      return
    }
    waiting.append(continuation)
    if file!.size >= limits.rotateBytes {
      // Its bodies are acknowledged by the sync inside, whether or not the rename works.
      try? closeFileOnQueue()
    } else if !syncQueued {
      syncQueued = true
      queue.async { self.syncOnQueue() }
    }
  }

  /// Syncs the open file and acknowledges every body written to it so far.
  private func syncOnQueue() {
    syncQueued = false
    guard let file, !waiting.isEmpty else { return }
    let started = ContinuousClock.now
    let result = Result { try file.sync() }
    metrics.synced(in: ContinuousClock.now - started)
    counts.syncs += 1
    switch result {
    case .success: counts.writeFailure = nil
    case .failure(let error): counts.writeFailure = "\(error)"
    }
    let acknowledged = waiting
    waiting = []
    if case .success = result { metrics.acknowledged(bodies: acknowledged.count, bytes: pendingBytes) }
    pendingBytes = 0
    for continuation in acknowledged { continuation.resume(with: result) }
  }

  /// Syncs the open file (acknowledging its bodies), then gives it its closed name. If the
  /// rename fails the file stays open and in use, and the next rotation tries again.
  private func closeFileOnQueue() throws {
    guard let file else { return }
    syncOnQueue()
    if file.size > 0 { try directory.rename(file.path, toClosedNameAt: Date(), sequence: &sequence) }
    self.file = nil
    file.close()
    if file.size == 0 {
      _ = unlink(file.path)
    } else {
      counts.filesClosed += 1
    }
    try directory.syncEntries()
  }
}
