import Foundation
internal import PullParityCore
package import PullParityStore

/// Reads inputs line by line, parses them, and commits them transaction by transaction.
///
/// A producer thread reads, parses and derives while this thread writes: the two cores
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
    let clock = database.clock
    let started = clock.elapsed()
    let names = inputs.map(\.name)
    var profilesStored = try checkProfiles()
    let profileVersions = Dictionary(
      uniqueKeysWithValues: options.profiles.sortedByName.map { ($0.name, $0.version) })
    let runID = try IngestLedger.begin(
      database, sources: names, toolVersion: options.toolVersion, profileVersions: profileVersions,
      parser: options.parser.rawValue)
    var committer = ChunkWriter(
      profiles: options.profiles, runID: runID, sourceNames: names, maxLineBytes: options.maxLineBytes, clock: clock,
      storedLineDecoder: LineDecoder(options.parser))
    var totals = RunCounts()
    var times = IngestStageTimes()
    let totalBytes = Self.totalBytes(inputs)
    var stoppedAt: String?
    var inputErrors: [IngestError] = []

    // The reader hands over chunks of at most `chunkLines`; a transaction takes chunks until it
    // holds `transactionLines`. Small chunks keep memory and the writer's first wait short; large
    // transactions keep commits (and the index pages every commit rewrites) few.
    let chunks = (options.transactionLines + options.maxChunkLines - 1) / options.maxChunkLines
    let chunkLines = max(1, options.transactionLines / chunks)
    let channel = ChunkChannel(capacity: 2)
    let producer = ChunkProducer(
      inputs: inputs, chunkLines: chunkLines, parser: options.parser, profiles: options.profiles,
      maxLineBytes: options.maxLineBytes, clock: clock)
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
      var finished = false
      while !finished {
        var transactionCounts = RunCounts()
        var last: (position: String, bytesRead: Int)?
        let commitStarted = clock.elapsed()
        var bodyEnded = commitStarted
        try database.write { db in
          let tx = try IngestTransaction(db)
          var derivedRefs = Set<Int64>()
          while transactionCounts.linesRead + transactionCounts.linesResumed < options.transactionLines {
            let waitStarted = clock.elapsed()
            guard let item = channel.take() else {
              finished = true
              break
            }
            times.waitingForInput += clock.seconds(since: waitStarted)
            let chunk: IngestChunk
            switch item {
            case .chunk(let next): chunk = next
            case .failure(let error): throw error
            case .inputFailed(let error):
              inputErrors.append(error)
              continue
            }
            times.readAndParse += chunk.readAndParseSeconds
            let (counts, known) = try committer.write(chunk, into: tx, derivedRefs: &derivedRefs, times: &times)
            let events = counts.eventsStored + counts.duplicates
            channel.expectKnownChunks = known
            channel.expectDuplicates = events > 0 && counts.duplicates * 10 >= events * 9
            transactionCounts += counts
            last = (chunk.lastPosition, chunk.bytesRead)
            progress(
              IngestProgress(
                linesRead: totals.linesRead + totals.linesResumed + transactionCounts.linesRead
                  + transactionCounts.linesResumed,
                eventsStored: totals.eventsStored + transactionCounts.eventsStored, bytesRead: chunk.bytesRead,
                totalBytes: totalBytes, elapsedSeconds: clock.seconds(since: started)))
          }
          try committer.deriveDeferred(tx, times: &times)
          let newProfiles = committer.profilesUsed.subtracting(profilesStored)
          try ProfileRegistry.store(newProfiles.sorted().map(options.profiles.resolve), in: db, at: clock.now())
          profilesStored.formUnion(newProfiles)
          var runTotals = totals
          runTotals += transactionCounts
          try IngestLedger.record(db, runID: runID, totals: runTotals)
          bodyEnded = clock.elapsed()
        }
        times.commit += clock.seconds(since: bodyEnded)
        totals += transactionCounts
        guard let last else { break }
        if !finished, shouldStop() {
          stoppedAt = last.position
          break
        }
      }
    } catch {
      try? IngestLedger.finish(
        database, runID: runID, status: .failed, totals: totals,
        durationMs: clock.seconds(since: started) * 1000)
      throw error
    }

    let status: RunStatus = stoppedAt == nil ? .completed : .interrupted
    let duration = clock.seconds(since: started)
    try IngestLedger.finish(database, runID: runID, status: status, totals: totals, durationMs: duration * 1000)
    return IngestSummary(
      runID: runID, sources: names, counts: totals, status: status, durationSeconds: duration,
      stoppedAt: stoppedAt, stageTimes: times, inputErrors: inputErrors)
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
