internal import GRDB
package import PullParityCore
internal import PullParityReport
package import PullParityStore

/// Rebuilds every derived table from the stored raw events, in one transaction: after a
/// profile change or a new release of the rules, the database says what today's rules say.
package struct Replayer {
  package var database: PullParityDatabase
  package var profiles: ProfileCatalog
  /// Reads the events `load --leave-events` left in run directories (`replay --read-events`);
  /// nil keeps those sessions as loaded.
  package var leftEvents: (any LeftEventSource)?

  package init(database: PullParityDatabase, profiles: ProfileCatalog, leftEvents: (any LeftEventSource)? = nil) {
    self.database = database
    self.profiles = profiles
    self.leftEvents = leftEvents
  }

  /// A replay applies new rules on purpose, but must not drop a user's profile because the
  /// command was run without the file that defines it.
  private func checkNothingForgotten(_ stored: [StoredProfile]) throws {
    let forgotten = stored.filter { $0.version > 0 && profiles[$0.name] == nil }
    guard !forgotten.isEmpty else { return }
    throw ProfileMismatchError(
      ProfileRegistry.mismatches(profiles, stored: forgotten),
      advice: "Pass --profiles with a file that defines \(forgotten.map(\.name).joined(separator: ", ")).")
  }

  package func run() throws -> ReplaySummary {
    var summary = try replay()
    summary.digests = try DigestRefresh.afterWrite(database)
    return summary
  }

  private func replay() throws -> ReplaySummary {
    let started = database.clock.elapsed()
    return try database.write { db in
      try checkNothingForgotten(try ProfileRegistry.stored(db))
      let replay = ReplayTransaction(db)
      let before = try replay.sessionSignatures()
      // Read before their rows are cleared: the run directory names sessions by id.
      let leftRuns =
        leftEvents == nil ? [] : try LeftEvents.runs(db).map { ($0, try LeftEvents.sessionRefs(ofRun: $0.runID, db)) }
      try replay.clearDerived(readingLeftEvents: leftEvents != nil)
      var derivation = ReplayDerivation(tx: try IngestTransaction(db), profiles: profiles)
      try deriveEverySession(of: replay, into: &derivation)
      let awaiting = try leftEvents.map { try deriveLeftSessions(leftRuns, from: $0, into: &derivation) } ?? [:]
      var judge = try CrossSessionJudge(db, profiles: profiles, awaiting: awaiting)
      try judge.run()
      try ProfileRegistry.replace(with: derivation.profilesUsed, in: db, at: database.clock.now())
      // Read back rather than taken from the derivation: the judge may have changed sessions.
      let after = try replay.sessionSignatures()
      let changed = after.keys.filter { id in before[id].map { $0 != after[id] } ?? false }.sorted().map(\.text)
      let left = leftEvents == nil ? try replay.sessionsLeftInRuns() : 0
      return ReplaySummary(
        sessions: after.count, events: derivation.events, changed: changed,
        added: after.keys.count { before[$0] == nil }, removed: before.keys.count { after[$0] == nil },
        durationSeconds: database.clock.seconds(since: started), keptWithoutRaw: try replay.sessionsWithoutRaw(),
        keptLeftInRuns: left,
        leftDirectories: left == 0 ? [] : Array(Set(try LeftEvents.runs(db).map(\.directory))).sorted())
    }
  }

  /// The sessions whose events were left in run directories, derived from the lines read back
  /// there, run by run; returns, by ref, the machine state of those the cross-session judge may
  /// finalize with their context (ingest keeps it alike), as their lines are not in the file.
  private func deriveLeftSessions(
    _ runs: [(LeftEventRun, [ByteIdentity: Int64])], from source: any LeftEventSource,
    into derivation: inout ReplayDerivation
  ) throws -> [Int64: ReducedSession] {
    var awaiting: [Int64: ReducedSession] = [:]
    var decoder = LineDecoder()
    // A run whose sessions a later load of its directory replaced has none left to derive.
    for (run, refs) in runs where !refs.isEmpty {
      var current: (id: String, gathered: StoredSessionEvents)?
      func finish() throws {
        guard let (id, gathered) = current else { return }
        guard let ref = refs[ByteIdentity(id)] else {
          throw LeftEventsError(
            "\(run.directory)/json/events holds session \"\(id)\", which load (run \(run.runID)) did not "
              + "leave there: the run directory changed since it was loaded")
        }
        awaiting[ref] = try derivation.deriveLeft(ref, gathered)
      }
      try source.forEachLine(of: run) { id, raw, sourceName, line in
        if current?.id != id {
          try finish()
          current = (id, StoredSessionEvents())
        }
        current!.gathered.add(raw, source: sourceName, line: line, decoder: &decoder)
      }
      try finish()
    }
    return awaiting
  }

  /// Lines arrive session by session and are decoded as they come: a session is held once, as
  /// events.
  private func deriveEverySession(of replay: ReplayTransaction, into derivation: inout ReplayDerivation) throws {
    var decoder = LineDecoder()
    var current: (ref: Int64, gathered: StoredSessionEvents)?
    try replay.forEachStoredLine { ref, raw, source, line in
      if current?.ref != ref {
        if let current { try derivation.derive(current.ref, current.gathered) }
        current = (ref, StoredSessionEvents())
      }
      current!.gathered.add(raw, source: source, line: line, decoder: &decoder)
    }
    if let current { try derivation.derive(current.ref, current.gathered) }
  }
}
