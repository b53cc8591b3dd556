package import GRDB
package import PullParityCore
internal import PullParityStore

/// Judges again what one session's events cannot decide alone (docs/events.md §5, v1.1): a
/// stuck or dropped refresh once its app and platform's data has moved past the rule's time, and
/// a repeated refresh once the install's other refreshes are known. Ingest runs it at the end of
/// every transaction, replay and load at the end of theirs, so that the order logs arrive in
/// never changes a verdict and no committed state waits for one.
///
/// The sessions it derives again get the same events and the context the store now knows
/// (`CrossSessionQueries.ContextReader`); everything else about them is as the pipeline derived it.
package struct CrossSessionJudge {
  let tx: IngestTransaction
  let db: Database
  let profiles: ProfileCatalog
  /// Sessions as the machine left them, which need only their context (`ChunkWriter`); any
  /// other is derived again from its stored lines.
  let awaiting: [Int64: ReducedSession]
  private var decoder: LineDecoder
  private let contexts: CrossSessionQueries.ContextReader

  package init(_ db: Database, profiles: ProfileCatalog, awaiting: [Int64: ReducedSession] = [:]) throws {
    self.db = db
    tx = try IngestTransaction(db)
    self.profiles = profiles
    self.awaiting = awaiting
    decoder = LineDecoder()
    contexts = try CrossSessionQueries.ContextReader(db)
  }

  /// Derives again every session whose verdict the store's context changes; returns how many.
  @discardableResult
  package mutating func run() throws -> Int {
    var refs = Set(try CrossSessionQueries.dueForJudgement(db))
    for install in try CrossSessionQueries.takeInstallsToJudge(db) {
      let refreshes = try CrossSessionQueries.refreshes(ofInstall: install, db)
      refs.formUnion(misjudgedRepeats(refreshes))
    }
    for ref in refs.sorted() { try derive(ref) }
    // Deriving again moves no refresh's start or end, so the installs it queued are judged.
    _ = try CrossSessionQueries.takeInstallsToJudge(db)
    return refs.count
  }

  /// The refreshes whose stored repeated-refresh verdict is not what their predecessor on the
  /// same screen says, and those that repeat (so their finding names today's gap). v1.2: a
  /// refresh whose session recorded no pull repeats when the predecessor still ran (no end, or
  /// an end after this start) or started within the profile's `repeat_within_ms`.
  func misjudgedRepeats(_ refreshes: [CrossSessionQueries.Refresh]) -> [Int64] {
    var misjudged: [Int64] = []
    var previous: CrossSessionQueries.Refresh?
    for refresh in refreshes {
      // Screens are keys, compared byte for byte as SQLite compares them.
      let sameScreen = previous.map { $0.screen.map(ByteIdentity.init) == refresh.screen.map(ByteIdentity.init) }
      let predecessor = sameScreen == true ? previous : nil
      let window = profiles.resolve(refresh.profile).repeatWithinMs
      let slack = SessionMetrics.comparisonSlack
      let repeats = predecessor.map { before in
        guard !refresh.pulled else { return false }
        let running = before.endedAt.map { $0 > refresh.startedAt + slack } ?? true
        return running || refresh.startedAt - before.startedAt < window - slack
      }
      if repeats == true || refresh.repeated != (repeats ?? false) { misjudged.append(refresh.ref) }
      previous = refresh
    }
    return misjudged
  }

  private mutating func derive(_ ref: Int64) throws {
    if let reduced = awaiting[ref] {
      try tx.save(reduced.finalize(try contexts.context(of: ref)), ref: ref)
      return
    }
    // Its stored row is all that is left of a session `retain` took raw events of; a session
    // none of whose lines pass today's rules is left as it is (replay removes it).
    let contexts = contexts  // read by the closure while `decoder` is borrowed
    guard
      let session = try StoredSessionDerivation.derive(
        ref, tx, profiles: profiles, decoder: &decoder, context: { try contexts.context(of: ref) })
    else { return }
    try tx.save(session, ref: ref)
  }
}
