internal import PullParityCore
internal import PullParityStore

/// The sessions of a replay derived again, one at a time, with what the summary needs of them:
/// the events read and the profiles used.
struct ReplayDerivation {
  let tx: IngestTransaction
  let profiles: ProfileCatalog
  private(set) var events = 0
  private var used: [String: Profile] = [:]

  init(tx: IngestTransaction, profiles: ProfileCatalog) {
    self.tx = tx
    self.profiles = profiles
  }

  /// The profiles sessions were derived with, by name.
  var profilesUsed: [Profile] { used.keys.sorted().compactMap { used[$0] } }

  /// Derives and saves the session stored under `ref`, from the events gathered of its lines.
  mutating func derive(_ ref: Int64, _ gathered: StoredSessionEvents) throws {
    // A session none of whose lines pass today's rules is gone after the replay.
    guard let session = StoredSessionDerivation.derive(ref, gathered, profiles: profiles) else { return }
    events += gathered.events.count
    if used[session.profileName] == nil { used[session.profileName] = profiles.resolve(session.profileName) }
    // The ref is kept: events point at their session through it.
    try tx.save(session, ref: ref)
  }

  /// The same for a session whose lines were read back from its run directory; returns its
  /// machine state when the cross-session judge may finalize it (an open judgement, or a
  /// refresh its install's next one is compared with), since it cannot read its lines again.
  mutating func deriveLeft(_ ref: Int64, _ gathered: StoredSessionEvents) throws -> ReducedSession? {
    guard let events = try? gathered.finish(sessionID: "\(ref)") else { return nil }
    let reduced = SessionDeriver.reduce(events, profiles: profiles)
    let session = reduced.finalize(SessionContext())
    self.events += events.count
    if used[session.profileName] == nil { used[session.profileName] = profiles.resolve(session.profileName) }
    try tx.save(session, ref: ref)
    return session.judgeAgainAt != nil || session.refreshStartedAt != nil ? reduced : nil
  }
}
