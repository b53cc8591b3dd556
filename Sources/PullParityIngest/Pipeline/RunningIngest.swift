internal import GRDB
internal import PullParityCore
internal import PullParityStore

/// An ingest run in progress, on the writing thread: its row in the ledger, its totals and
/// stage times, and the transactions it commits one after another from the reader's chunks.
struct RunningIngest {
  let database: PullParityDatabase
  let options: IngestOptions
  let names: [String]
  let runID: Int64
  let started: Duration
  let totalBytes: Int?
  private var committer: ChunkWriter
  private var profilesStored: Set<String>
  private var totals = RunCounts()
  private var times = IngestStageTimes()
  private var inputErrors: [IngestError] = []
  /// Where the last committed transaction ended, and where a stop on request left off.
  private var lastPosition: String?
  private var stoppedAt: String?
  private var readerFinished = false
  /// The key epochs' filters (event ids, session ids), read once per run rather than per
  /// transaction.
  private let keyEpochs: KeyEpochs
  private let sessionEpochs: KeyEpochs

  /// Opens the run's ledger row. `profilesStored`: the profiles the database holds already.
  init(database: PullParityDatabase, options: IngestOptions, inputs: [InputFile], profilesStored: Set<String>) throws {
    self.database = database
    self.options = options
    self.profilesStored = profilesStored
    names = inputs.map(\.name)
    keyEpochs = KeyEpochs(.events, capacity: options.keyEpochCapacity)
    sessionEpochs = KeyEpochs(.sessions, capacity: options.keyEpochCapacity)
    started = database.clock.elapsed()
    totalBytes = Ingestor.totalBytes(inputs)
    let profileVersions = Dictionary(
      uniqueKeysWithValues: options.profiles.sortedByName.map { ($0.name, $0.version) })
    runID = try IngestLedger.begin(
      database, sources: names, toolVersion: options.toolVersion, profileVersions: profileVersions,
      parser: SimdjsonLineParser.name)
    committer = ChunkWriter(
      profiles: options.profiles, runID: runID, sourceNames: names, maxLineBytes: options.maxLineBytes,
      clock: database.clock, storedLineDecoder: LineDecoder())
  }

  private var clock: PipelineClock { database.clock }

  /// Commits one transaction of chunks (up to `transactionLines` lines) with the sessions they
  /// touched, the profiles they used and the run's totals. Returns false once there is nothing
  /// more to read.
  mutating func commitTransaction(
    from channel: ChunkChannel, progress: (IngestProgress) -> Void
  ) throws -> Bool {
    var counts = RunCounts()
    var last: String?
    var bodyEnded = clock.elapsed()
    try database.write { db in
      let tx = try IngestTransaction(db, keyEpochs: keyEpochs, sessionEpochs: sessionEpochs, runID: runID)
      last = try writeChunks(from: channel, into: tx, counts: &counts, progress: progress)
      try committer.deriveDeferred(tx, times: &times)
      // The last blocks and the keys waiting for them: storing events too.
      let finishing = clock.elapsed()
      try tx.finishBlocks()
      times.storeEvents += clock.seconds(since: finishing)
      try judgeAcrossSessions(db)
      let newProfiles = committer.profilesUsed.subtracting(profilesStored)
      try ProfileRegistry.store(newProfiles.sorted().map(options.profiles.resolve), in: db, at: clock.now())
      profilesStored.formUnion(newProfiles)
      var runTotals = totals
      runTotals += counts
      try IngestLedger.record(db, runID: runID, totals: runTotals)
      bodyEnded = clock.elapsed()
    }
    times.commit += clock.seconds(since: bodyEnded)
    totals += counts
    guard let last else { return false }
    lastPosition = last
    return !readerFinished
  }

  /// The verdicts the committed sessions' context decides (`CrossSessionJudge`), in every
  /// transaction: what a transaction commits is judged as the whole store then says, so a reader
  /// between two of them (a replay, a report, a run that fails at the next one) never meets
  /// sessions that still wait for a judgement the run owes them. Judged once after the run's
  /// last transaction instead, a replay slipped into that gap listed the sessions it judged as
  /// changed by the rules. The verdicts are the same: every later transaction judges again
  /// what its data moves on.
  private mutating func judgeAcrossSessions(_ db: Database) throws {
    let started = clock.elapsed()
    var judge = try CrossSessionJudge(db, profiles: options.profiles, awaiting: committer.awaitingJudgement)
    try judge.run()
    times.judgeAcrossSessions += clock.seconds(since: started)
  }

  /// Ends the run after the last committed transaction, as asked (SIGINT, SIGTERM).
  mutating func stop() {
    stoppedAt = lastPosition
  }

  /// Takes chunks until the transaction is full or the reader is done; returns where the last
  /// chunk ended, nil when there was none.
  private mutating func writeChunks(
    from channel: ChunkChannel, into tx: IngestTransaction, counts: inout RunCounts,
    progress: (IngestProgress) -> Void
  ) throws -> String? {
    var derivedRefs = Set<Int64>()
    var last: String?
    while counts.linesRead + counts.linesResumed < options.transactionLines {
      let waitStarted = clock.elapsed()
      guard let item = channel.take() else {
        readerFinished = true
        break
      }
      times.waitingForInput += clock.seconds(since: waitStarted)
      switch item {
      case .chunk(let chunk):
        times.readAndParse += chunk.input.readAndParseSeconds
        counts += try committer.write(chunk, into: tx, derivedRefs: &derivedRefs, times: &times)
        last = chunk.input.lastPosition
        progress(self.progress(after: chunk, counts))
      case .failure(let error): throw error
      case .inputFailed(let error): inputErrors.append(error)
      }
    }
    return last
  }

  private func progress(after chunk: IngestChunk, _ counts: RunCounts) -> IngestProgress {
    IngestProgress(
      linesRead: totals.linesRead + totals.linesResumed + counts.linesRead + counts.linesResumed,
      eventsStored: totals.eventsStored + counts.eventsStored, bytesRead: chunk.input.bytesRead, totalBytes: totalBytes,
      elapsedSeconds: clock.seconds(since: started))
  }

  /// Records a run that failed (the error is the caller's to report).
  func fail() {
    try? IngestLedger.finish(
      database, runID: runID, status: .failed, totals: totals, durationMs: clock.seconds(since: started) * 1000)
  }

  /// Closes the run's ledger row and sums it up.
  func finish() throws -> IngestSummary {
    let status: RunStatus = stoppedAt == nil ? .completed : .interrupted
    let duration = clock.seconds(since: started)
    try IngestLedger.finish(database, runID: runID, status: status, totals: totals, durationMs: duration * 1000)
    return IngestSummary(
      runID: runID, sources: names, counts: totals, status: status, durationSeconds: duration,
      stoppedAt: stoppedAt, stageTimes: times, inputErrors: inputErrors)
  }
}
