internal import PullParityCore
internal import PullParityStore

/// Writes chunks inside the ingest's current transaction: events (skipping duplicates,
/// quarantining conflicts), rejected lines, and a fresh derivation of every session touched.
///
/// A session seen for the first time was already derived from the chunk's own events on the
/// reading thread; only sessions that had stored events before are read back and derived
/// here, so a clean ingest never reads what it just wrote.
struct ChunkWriter {
  let profiles: ProfileCatalog
  let runID: Int64
  let sourceNames: [String]
  let maxLineBytes: Int
  /// Times the stages (`IngestStageTimes`).
  let clock: PipelineClock
  /// Re-parses stored raw lines of sessions that continue across chunks.
  var storedLineDecoder: LineDecoder
  /// The names of the profiles the sessions written so far were derived with.
  private(set) var profilesUsed: Set<String> = []
  /// Sessions with events stored before, touched in this transaction: derived once from all
  /// their stored events when it ends (`deriveDeferred`), not once per chunk. Re-reading a
  /// session per chunk made a session of a million events (a client sending one constant
  /// session id) quadratic.
  private(set) var deferred: [Int64] = []
  private(set) var deferredSet: Set<Int64> = []
  /// Sessions this transaction stored all the events of that the reader saw (and no others),
  /// by how many. When the reader carried exactly that many events of one into a chunk
  /// (`CarriedEvents`) and the chunk's events of it are all stored too, its derivation is the
  /// stored session's. Forgotten at a chunk the reader did not parse, and at every commit:
  /// another writer may add to a session between two transactions. At most a transaction's
  /// sessions.
  private(set) var storedWhole: [Int64: Int] = [:]
  /// The sessions written with a judgement still open (a stuck or dropped refresh waiting for
  /// its app and platform's data), as the machine left them: the cross-session judge finalizes
  /// these with their context instead of reading their lines back, which was most of its time
  /// (322 blocks decompressed for 502 sessions on the 1M-event benchmark log). At most
  /// `awaitingJudgementLimit`; a session past it is read back as before.
  private(set) var awaitingJudgement: [Int64: ReducedSession] = [:]
  static let awaitingJudgementLimit = 20_000

  /// - Parameter derivedRefs: sessions already derived in this transaction; a session that spans
  ///   several chunks of one transaction is counted once.
  /// - Returns: the chunk's counts.
  mutating func write(
    _ chunk: IngestChunk, into tx: IngestTransaction, derivedRefs: inout Set<Int64>, times: inout IngestStageTimes
  ) throws -> RunCounts {
    var mark = clock.elapsed()
    let input = chunk.input
    if let fingerprint = input.fingerprint, let known = try tx.knownChunk(fingerprint) {
      storedWhole = [:]
      let counts = try countKnown(input, known, fingerprint: fingerprint, tx)
      times.storeEvents += lap(&mark)
      return counts
    }
    let lines: ParsedLines
    switch chunk {
    case .parsed(_, let parsed): lines = parsed
    case .known(_, let unparsed): lines = parse(unparsed)
    }
    let (refs, existed) = try sessionRefs(of: lines, tx)
    var (counts, stored) = try storeRows(of: lines, refs: refs, tx)
    counts.linesRead = input.linesRead
    counts.blankLines = input.blankLines
    times.storeEvents += lap(&mark)
    for (i, session) in lines.sessions.enumerated() {
      let storedCount = session.rowIndices.count { stored[$0] }
      guard storedCount > 0 else { continue }
      if derivedRefs.insert(refs[i]).inserted { counts.sessionsDerived += 1 }
      // The reading thread's derivation holds when it is of all the session's stored events:
      // the chunk's, all stored, and those carried, which are all it had stored before.
      let storedBefore = existed[i] ? storedWhole.removeValue(forKey: refs[i]) : 0
      if let ahead = session.derived, storedCount == session.rowIndices.count,
        session.carriedEvents == storedBefore
      {
        try save(ahead, session.reduced, tx, ref: refs[i], isNew: !existed[i], times: &times, mark: &mark)
        storedWhole[refs[i]] = session.carriedEvents + storedCount
      } else if existed[i] {
        if deferredSet.insert(refs[i]).inserted { deferred.append(refs[i]) }
      } else {
        try derive(refs[i], tx, isNew: true, times: &times, mark: &mark)
      }
    }
    // The reader did not parse a known chunk, and carries nothing past it.
    if case .known = chunk { storedWhole = [:] }
    if let fingerprint = input.fingerprint {
      try tx.recordChunk(
        fingerprint,
        outcome: ChunkOutcome(
          // Only the sum of bad lines is read back (as already quarantined).
          events: counts.eventsStored + counts.duplicates, conflicts: counts.conflicts,
          rejected: counts.quarantined + counts.alreadyQuarantined, blank: counts.blankLines),
        runID: runID)
    }
    return counts
  }

  /// A chunk written before changes nothing: its lines are what they were. If the run that
  /// wrote it did not finish, this run resumes its work: that run counted the lines.
  private func countKnown(
    _ input: ChunkInput, _ known: ChunkOutcome, fingerprint: ChunkFingerprint, _ tx: IngestTransaction
  ) throws -> RunCounts {
    var counts = RunCounts()
    if known.resumable {
      try tx.claimChunk(fingerprint, runID: runID)
      counts.linesResumed = input.linesRead
    } else {
      counts.linesRead = input.linesRead
      counts.blankLines = known.blank
      counts.duplicates = known.events
      counts.alreadyQuarantined = known.conflicts + known.rejected
    }
    return counts
  }

  /// Sessions seen before keep their ref; new ones get the next (refs only ever grow, so the
  /// events' session index is appended to, not inserted into at random).
  private func sessionRefs(of chunk: ParsedLines, _ tx: IngestTransaction) throws -> ([Int64], [Bool]) {
    var refs: [Int64] = []
    var existed: [Bool] = []
    refs.reserveCapacity(chunk.sessions.count)
    for session in chunk.sessions {
      let existing = try tx.sessionRef(of: session.sessionID)
      refs.append(existing ?? tx.newSessionRef())
      existed.append(existing != nil)
    }
    return (refs, existed)
  }

  /// Stores the chunk's events and quarantines its bad lines; returns the counts and which
  /// rows were stored (not duplicates or conflicts).
  private func storeRows(
    of chunk: ParsedLines, refs: [Int64], _ tx: IngestTransaction
  ) throws -> (RunCounts, [Bool]) {
    var sourceIDs: [Int64] = []
    for name in sourceNames { sourceIDs.append(try tx.sourceID(named: name)) }
    var writer = ChunkEventWriter(
      chunk: chunk, tx: tx, refs: refs, sourceIDs: sourceIDs,
      quarantine: { [self] rejection, row, raw, eventID in
        try quarantine(
          tx, rejection, sourceIndex: row.sourceIndex, line: row.line, byteOffset: row.byteOffset, raw: raw,
          eventID: eventID)
      })
    try chunk.arena.withUnsafeBytes { arena in
      // Lines whose id (key) repeats within the chunk go first, one by one and in input
      // order: which version is stored must not depend on how the chunk is grouped.
      try writer.store(chunk.repeatedIDRows, arena: arena)
      // The rest session by session, so each session's lines lie together in the blocks: a
      // session is then read back from a few blocks (`session_blocks`).
      let rest = chunk.sessions.flatMap { $0.rowIndices.filter { !chunk.rows[$0].idRepeatsInChunk } }
      try writer.store(rest, arena: arena)
      for line in chunk.rejected {
        let added = try quarantine(
          tx, line.rejection, sourceIndex: line.sourceIndex, line: line.line, byteOffset: line.byteOffset,
          raw: line.raw.bytes(in: arena), eventID: nil)
        if added { writer.counts.quarantined += 1 } else { writer.counts.alreadyQuarantined += 1 }
      }
    }
    return (writer.counts, writer.stored)
  }

  /// Derives the sessions deferred by this transaction's chunks; call before it commits.
  mutating func deriveDeferred(_ tx: IngestTransaction, times: inout IngestStageTimes) throws {
    var mark = clock.elapsed()
    for ref in deferred { try derive(ref, tx, isNew: false, times: &times, mark: &mark) }
    deferred.removeAll()
    deferredSet.removeAll()
    storedWhole = [:]
  }

  /// Derives a session from all its stored events and saves it; a session `retain` took raw
  /// events of, or whose stored lines no longer decode, keeps the row it has.
  private mutating func derive(
    _ ref: Int64, _ tx: IngestTransaction, isNew: Bool, times: inout IngestStageTimes,
    mark: inout Duration
  ) throws {
    guard let reduced = try StoredSessionDerivation.reduce(ref, tx, profiles: profiles, decoder: &storedLineDecoder)
    else {
      awaitingJudgement[ref] = nil
      return
    }
    times.derive += lap(&mark)
    times.sessionsReadBack += 1
    try save(reduced.finalize(SessionContext()), reduced, tx, ref: ref, isNew: isNew, times: &times, mark: &mark)
  }

  /// Saves the session's rows, and keeps `reduced` while its judgement is open.
  private mutating func save(
    _ derived: DerivedSession, _ reduced: ReducedSession?, _ tx: IngestTransaction, ref: Int64, isNew: Bool,
    times: inout IngestStageTimes, mark: inout Duration
  ) throws {
    let keep =
      derived.judgeAgainAt != nil
      && (awaitingJudgement[ref] != nil || awaitingJudgement.count < Self.awaitingJudgementLimit)
    awaitingJudgement[ref] = keep ? reduced : nil
    try tx.save(derived, ref: ref, isNew: isNew)
    profilesUsed.insert(derived.profileName)
    times.storeSessions += lap(&mark)
  }

  /// Parses a chunk the reader only copied (the database had it when the reader looked, and
  /// this transaction does not).
  private mutating func parse(_ unparsed: UnparsedLines) -> ParsedLines {
    var builder = ChunkBuilder(
      profiles: profiles, sourceNames: sourceNames, expectedLines: unparsed.lines.count, maxLineBytes: maxLineBytes)
    unparsed.parse(into: &builder, decoder: &storedLineDecoder)
    return builder.finish().0
  }

  /// Seconds since `mark` (a `clock.elapsed()` reading), which moves on to now.
  private func lap(_ mark: inout Duration) -> Double {
    let now = clock.elapsed()
    defer { mark = now }
    return PipelineClock.seconds(now - mark)
  }

  private func quarantine(
    _ tx: IngestTransaction, _ rejection: Rejection, sourceIndex: Int, line: Int, byteOffset: Int,
    raw: UnsafeRawBufferPointer, eventID: String?
  ) throws -> Bool {
    try tx.quarantine(
      source: sourceNames[sourceIndex], line: line, byteOffset: byteOffset,
      category: rejection.reason.rawValue, reason: rejection.message, raw: raw,
      rawIsUTF8: rejection.reason != .invalidUTF8 && String(validating: raw, as: UTF8.self) != nil,
      eventID: eventID, runID: runID)
  }
}
