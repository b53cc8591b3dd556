import Foundation
public import PullParityStore
import PullParityCore

/// Reads inputs line by line, parses them, and commits them batch by batch.
///
/// A producer thread reads and parses while this thread writes: the two cores overlap, and a
/// bounded channel of two batches keeps memory bounded by the batch, never by the input.
public struct Ingestor {
  public var database: PullParityDatabase
  public var options: IngestOptions

  public init(database: PullParityDatabase, options: IngestOptions) {
    self.database = database
    self.options = options
  }

  /// Ingests `inputs` (already expanded by `InputCatalog`).
  ///
  /// - Parameters:
  ///   - shouldStop: asked after every committed batch; `true` ends the run cleanly there.
  ///   - progress: called after every committed batch.
  public func run(
    _ inputs: [InputFile], shouldStop: () -> Bool = { false },
    progress: (IngestProgress) -> Void = { _ in }
  ) throws -> IngestSummary {
    let started = ContinuousClock.now
    let names = inputs.map(\.name)
    let profileVersions = Dictionary(
      uniqueKeysWithValues: options.profiles.sortedByName.map { ($0.name, $0.version) })
    let runID = try IngestLedger.begin(
      database, sources: names, toolVersion: options.toolVersion, profileVersions: profileVersions,
      parser: options.parser.rawValue)
    var committer = BatchCommitter(
      database: database, profiles: options.profiles, runID: runID, sourceNames: names,
      storedLineDecoder: LineDecoder(options.parser))
    var totals = RunCounts()
    var times = IngestStageTimes()
    let totalBytes = Self.totalBytes(inputs)
    var stoppedAt: String?

    let channel = BatchChannel(capacity: 2)
    let producer = BatchProducer(inputs: inputs, batchLines: options.batchLines, parser: options.parser)
    let producerDone = DispatchSemaphore(value: 0)
    let thread = Thread {
      producer.run(into: channel)
      producerDone.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    defer {
      channel.cancel()
      producerDone.wait()
    }

    do {
      while true {
        let waitStarted = ContinuousClock.now
        guard let item = channel.take() else { break }
        times.waitingForInput += BatchProducer.seconds(since: waitStarted)
        let batch: IngestBatch
        switch item {
        case .failure(let error): throw error
        case .batch(let next): batch = next
        }
        times.readAndParse += batch.readAndParseSeconds
        totals += try committer.commit(batch, totalsBefore: totals, times: &times)
        progress(
          IngestProgress(
            linesRead: totals.linesRead, eventsStored: totals.eventsStored, bytesRead: batch.bytesRead,
            totalBytes: totalBytes, elapsedSeconds: BatchProducer.seconds(since: started)))
        if shouldStop() {
          stoppedAt = batch.lastPosition
          break
        }
      }
    } catch {
      try? IngestLedger.finish(
        database, runID: runID, status: .failed, totals: totals,
        durationMs: BatchProducer.seconds(since: started) * 1000)
      throw error
    }

    let status: RunStatus = stoppedAt == nil ? .completed : .interrupted
    let duration = BatchProducer.seconds(since: started)
    try IngestLedger.finish(database, runID: runID, status: status, totals: totals, durationMs: duration * 1000)
    return IngestSummary(
      runID: runID, sources: names, counts: totals, status: status, durationSeconds: duration,
      stoppedAt: stoppedAt, stageTimes: times)
  }

  static func open(_ input: InputFile) throws -> any ByteSource {
    // zlib reads plain data through unchanged, so standard input may be gzip or not.
    if input.isStandardInput { return try GzipByteSource(descriptor: 0, name: "-") }
    return input.isGzip ? try GzipByteSource(path: input.name) : try FileByteSource(path: input.name)
  }

  private static func totalBytes(_ inputs: [InputFile]) -> Int? {
    var total = 0
    for input in inputs {
      guard !input.isStandardInput,
        let size = try? FileManager.default.attributesOfItem(atPath: input.name)[.size] as? Int
      else { return nil }
      total += size
    }
    return total
  }
}
