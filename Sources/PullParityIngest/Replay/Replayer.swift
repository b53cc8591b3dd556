package import PullParityCore
package import PullParityStore

/// Rebuilds every derived table from the stored raw events, in one transaction: after a
/// profile change or a new release of the rules, the database says what today's rules say.
package struct Replayer {
  package var database: PullParityDatabase
  package var profiles: ProfileCatalog

  package init(database: PullParityDatabase, profiles: ProfileCatalog) {
    self.database = database
    self.profiles = profiles
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
    let started = database.clock.elapsed()
    return try database.write { db in
      try checkNothingForgotten(try ProfileRegistry.stored(db))
      let replay = ReplayTransaction(db)
      let before = try replay.sessionSignatures()
      try replay.clearDerived()
      var derivation = ReplayDerivation(tx: try IngestTransaction(db), profiles: profiles)
      try deriveEverySession(of: replay, into: &derivation)
      var judge = try CrossSessionJudge(db, profiles: profiles)
      try judge.run()
      try ProfileRegistry.replace(with: derivation.profilesUsed, in: db, at: database.clock.now())
      // Read back rather than taken from the derivation: the judge may have changed sessions.
      let after = try replay.sessionSignatures()
      let changed = after.keys.filter { id in before[id].map { $0 != after[id] } ?? false }.sorted().map(\.text)
      return ReplaySummary(
        sessions: after.count, events: derivation.events, changed: changed,
        added: after.keys.count { before[$0] == nil }, removed: before.keys.count { after[$0] == nil },
        durationSeconds: database.clock.seconds(since: started), keptWithoutRaw: try replay.sessionsWithoutRaw())
    }
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
