import PullParityCore
import PullParityDistributed
import PullParityIngest
import PullParityReport
import PullParityStore

/// Finds one session by its id or a prefix of it and replays it from its stored raw lines with
/// the profiles stored in the database.
struct SessionFrontend {
  var database: PullParityDatabase
  /// As named on the command line, for messages.
  var databaseName: String
  /// `--read-events`: a session whose events `load --leave-events` left in a run directory is
  /// read from there.
  var readEvents = false

  var queries: ReportQueries { ReportQueries(database) }

  /// The session `id` names: itself when it is a stored id, or as every output prints it
  /// (control characters as `\u{…}`, which a command line cannot hold raw: a NUL), else the one
  /// session whose id starts with it, ignoring case.
  func resolve(_ id: String) throws -> String {
    if try !queries.storedEvents(ofSession: id).isEmpty || queries.rawDropped(ofSession: id) != nil
      || queries.leftEvents(ofSession: id) != nil
    {
      return id
    }
    if let printed = TerminalText.unescaped(id) {
      if try !queries.storedEvents(ofSession: printed).isEmpty { return printed }
      if let match = try resolvePrefix(printed) { return match }
    }
    guard let match = try resolvePrefix(id) else { throw CommandError("no session \"\(id)\" in \(databaseName)") }
    return match
  }

  /// The one session whose id starts with `id`, ignoring ASCII case; nil when none does.
  private func resolvePrefix(_ id: String) throws -> String? {
    let matches = try queries.sessionIDs(startingWith: id, limit: 6)
    let exact = matches.filter { $0.lowercased() == id.lowercased() }
    if exact.count == 1 { return exact[0] }
    switch matches.count {
    case 0: return nil
    case 1: return matches[0]
    default:
      let listed = matches.prefix(5).joined(separator: ", ") + (matches.count > 5 ? ", …" : "")
      throw CommandError("\"\(id)\" matches several sessions: \(listed); give more of the id")
    }
  }

  /// The session's events in order with the state after each and its findings, as text.
  func trace(_ id: String, style: TextStyle) throws -> String {
    let sessionID = try resolve(id)
    if let dropped = try queries.rawDropped(ofSession: sessionID) {
      throw CommandError(
        "session \(TerminalText.escaped(sessionID)) can no longer be derived again: its raw events were dropped by "
          + "retention run \(dropped.retentionID) on \(dropped.retainedAt) (`pullparity retain --before "
          + "\(RetentionRecord.time(dropped.beforeMs))`); its stored row is kept and reports count it")
    }
    var catalog = ProfileCatalog()
    catalog.merge(try queries.storedProfiles().map(\.profile))
    var decoder = LineDecoder()
    let events = try decoder.sessionEvents(try lines(of: sessionID), sessionID: sessionID)
    // The context the store judged it in, so the replay finds what ingest stored.
    let context = try queries.judgementContext(ofSession: sessionID)
    let (session, steps) = SessionDeriver.trace(events, profiles: catalog, context: context)
    let qa = SessionQA.failures(session, steps: steps, profile: catalog.resolve(session.profileName))
    return SessionTraceRenderer(style: style).render(session, steps: steps, qa: qa)
  }

  /// The session's raw lines: stored in the file, or read back from the run directory
  /// `load --leave-events` left them in when asked (reading a run's part files is not free,
  /// and the directory may be gone: a plain `session` never touches it).
  private func lines(of sessionID: String) throws -> [StoredEvent] {
    guard let left = try queries.leftEvents(ofSession: sessionID) else {
      return try queries.storedEvents(ofSession: sessionID)
    }
    guard readEvents else {
      throw CommandError(
        "the raw events of session \(TerminalText.escaped(sessionID)) are not in \(databaseName): "
          + "`pullparity load --leave-events` left them in \(TerminalText.escaped(left.run.directory)) (run "
          + "\(left.run.runID)); add --read-events to read them from there")
    }
    return try PipeDiagnostic.reporting { try RunDirectoryEvents().events(of: left, sessionID: sessionID) }
  }
}
