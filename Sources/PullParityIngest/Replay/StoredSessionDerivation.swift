internal import PullParityCore
internal import PullParityStore

/// The one way a stored session is derived again from its raw lines, for ingest (a session
/// whose events span transactions), replay and the cross-session judge alike: its lines
/// decoded by today's rules, a line that no longer passes them left out, and the events run
/// through Core's `SessionDeriver`, which every derivation (the reading thread's, the `derive`
/// verb's) ends in.
enum StoredSessionDerivation {
  /// Reads session `ref`'s stored lines through `tx` and derives it, judged with `context`
  /// (read only for a session that is derived). Nil, leaving its stored row as it is, when
  /// `retain` took raw events of it or none of its lines passes today's rules.
  static func derive(
    _ ref: Int64, _ tx: IngestTransaction, profiles: ProfileCatalog, decoder: inout LineDecoder,
    context: () throws -> SessionContext = { SessionContext() }
  ) throws -> DerivedSession? {
    try reduce(ref, tx, profiles: profiles, decoder: &decoder)?.finalize(try context())
  }

  /// The same up to the context: the events read back and run through the machine.
  static func reduce(
    _ ref: Int64, _ tx: IngestTransaction, profiles: ProfileCatalog, decoder: inout LineDecoder
  ) throws -> ReducedSession? {
    guard try tx.hasAllRawEvents(ofSession: ref) else { return nil }
    var gathered = StoredSessionEvents()
    try tx.forEachStoredEvent(ofSession: ref) { raw, source, line in
      gathered.add(raw, source: source, line: line, decoder: &decoder)
    }
    guard !gathered.events.isEmpty, let events = try? gathered.finish(sessionID: "\(ref)") else { return nil }
    return SessionDeriver.reduce(events, profiles: profiles)
  }

  /// Session `ref` derived from the events gathered of its stored lines (replay reads every
  /// session's lines in one pass); nil when none of them passes today's rules.
  static func derive(
    _ ref: Int64, _ gathered: StoredSessionEvents, profiles: ProfileCatalog, context: SessionContext = SessionContext()
  ) -> DerivedSession? {
    guard let events = try? gathered.finish(sessionID: "\(ref)") else { return nil }
    return SessionDeriver.derive(events, profiles: profiles, context: context)
  }
}
