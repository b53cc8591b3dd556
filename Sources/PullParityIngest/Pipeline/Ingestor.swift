import Foundation
internal import PullParityCore
internal import PullParityReport
package import PullParityStore

/// Reads inputs line by line, parses them, and commits them transaction by transaction.
///
/// A producer thread reads, parses and derives while this thread writes (a chunk the database
/// already has is only read and hashed: see `ChunkProducer`): the two cores
/// overlap, and a bounded channel of two chunks keeps memory bounded by the chunk size, never by
/// the input.
package struct Ingestor {
  package var database: PullParityDatabase
  package var options: IngestOptions

  package init(database: PullParityDatabase, options: IngestOptions) {
    self.database = database
    self.options = options
  }

  /// Ingests `inputs` (already expanded by `InputCatalog`).
  ///
  /// - Parameters:
  ///   - shouldStop: asked after every committed transaction; `true` ends the run cleanly there.
  ///   - progress: called after every chunk written (a transaction holds several).
  package func run(
    _ inputs: [InputFile], shouldStop: () -> Bool = { false },
    progress: (IngestProgress) -> Void = { _ in }
  ) throws -> IngestSummary {
    try LeftEvents.refuseStoring(database, command: "ingest")
    var ingest = try RunningIngest(
      database: database, options: options, inputs: inputs, profilesStored: try checkProfiles())
    let channel = ChunkChannel(capacity: 2)
    let readerDone = startReader(inputs, into: channel)
    defer {
      channel.cancel()
      readerDone.wait()
    }
    do {
      while try ingest.commitTransaction(from: channel, progress: progress) {
        if shouldStop() {
          ingest.stop()
          break
        }
      }
    } catch {
      ingest.fail()
      throw error
    }
    var summary = try ingest.finish()
    if summary.stoppedAt == nil {
      // The run's log is copied into the file by a connection of its own while the digests
      // are counted, rather than by the file's close with a core idle.
      let checkpoint = database.startCheckpoint()
      defer { checkpoint.wait() }
      summary.digests = try DigestRefresh.afterWrite(database)
      summary.stageTimes.reportDigests = summary.digests?.seconds ?? 0
    }
    return summary
  }

  /// Starts the reading thread; the semaphore is signalled once it has stopped.
  private func startReader(_ inputs: [InputFile], into channel: ChunkChannel) -> DispatchSemaphore {
    // The reader hands over chunks of at most `chunkLines`; a transaction takes chunks until it
    // holds `transactionLines`. Small chunks keep memory and the writer's first wait short; large
    // transactions keep commits (and the index pages every commit rewrites) few.
    let (whole, rest) = options.transactionLines.quotientAndRemainder(dividingBy: options.maxChunkLines)
    let chunks = max(1, whole + (rest > 0 ? 1 : 0))
    let chunkLines = max(1, options.transactionLines / chunks)
    let producer = ChunkProducer(
      inputs: inputs, chunkLines: chunkLines, profiles: options.profiles,
      maxLineBytes: options.maxLineBytes, clock: database.clock, knownChunks: database.knownChunks())
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      producer.run(into: channel)
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return done
  }

  /// Refuses to derive with other rules than the stored sessions have (one app judged by two
  /// versions of its profile); returns the names of the profiles stored already.
  private func checkProfiles() throws -> Set<String> {
    let stored = try database.read { try ProfileRegistry.stored($0) }
    let mismatches = ProfileRegistry.mismatches(options.profiles, stored: stored)
    guard mismatches.isEmpty else {
      throw ProfileMismatchError(
        mismatches,
        advice: "Pass the stored profiles with --profiles, or run `pullparity replay --profiles FILE` to re-derive "
          + "every session with the new ones first.")
    }
    return Set(stored.map(\.name))
  }

  static func open(_ input: InputFile) throws -> any ByteSource {
    // zlib reads plain data through unchanged, so standard input may be gzip or not.
    if input.isStandardInput { return try GzipByteSource(descriptor: 0, name: "-") }
    // A file is gzip by its content (v1.2), not only by a `.gz` name: a compressed log saved
    // under another name is read, not quarantined line by line as compressed bytes.
    let isGzip = input.isGzip || FileByteSource.startsWithGzipMagic(path: input.name)
    return isGzip ? try GzipByteSource(path: input.name) : try FileByteSource(path: input.name)
  }

  static func totalBytes(_ inputs: [InputFile]) -> Int? {
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
