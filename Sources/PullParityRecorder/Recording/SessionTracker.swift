import PullParityCore

/// Which session an event belongs to, its `seq`, and the live check: the recorder's state,
/// kept under the recorder's lock.
///
/// Every event runs through the Core state machine with the app's profile, whether or not
/// anyone listens for findings: the machine's phase is what says a session has ended, so the
/// recorder splits sessions exactly where the pipeline expects them to be split.
struct SessionTracker {
  private struct OpenSession {
    var id: String
    var nextSeq = 0
    var state = SessionState()
    /// The end-of-session findings were judged when the indicator hid or the pull cancelled.
    var judgedAtEnd = false
    /// The screen of the session went away (`screen_left`): nothing more of it is recorded.
    var left = false
  }

  let profile: Profile
  private var ids: any EventIDSource
  private var current: OpenSession?

  init(profile: Profile, ids: any EventIDSource) {
    self.profile = profile
    self.ids = ids
  }

  var currentSessionID: String? { current?.id }

  /// Whether a session is under way: a pull, or a refresh not yet hidden. Only such a session
  /// can be left (`screen_left`).
  var sessionOpen: Bool {
    guard let phase = current?.state.phase else { return false }
    return [.pulling, .armed, .released, .refreshing, .holding].contains(phase)
  }

  /// Whether `payload` would join a session whose screen went away: it is not recorded.
  func joinsLeftSession(_ payload: EventPayload) -> Bool {
    current?.left == true && !opensSession(with: payload)
  }

  /// The session `payload` belongs to, opening one when it starts an interaction, and the
  /// last findings of the session that closes because of it.
  mutating func stamp(
    _ payload: EventPayload, at timestamp: Double
  ) -> (sessionID: String, seq: Int, eventID: String, closing: [LiveFinding]) {
    var closing: [LiveFinding] = []
    var session: OpenSession
    if let open = current, !opensSession(with: payload) {
      session = open
    } else {
      closing = close()
      session = OpenSession(id: ids.nextID(at: timestamp))
    }
    let seq = session.nextSeq
    session.nextSeq += 1
    current = session
    return (session.id, seq, ids.nextID(at: timestamp), closing)
  }

  /// Whether `payload` opens a session rather than joining the current one: read before the
  /// clock, which re-anchors only at a session's start.
  func opensSession(with payload: EventPayload) -> Bool {
    guard let open = current else { return true }
    return Self.opensSession(payload, after: open.state.phase)
  }

  /// Applies an event stamped by `stamp` and returns what it raised; when it ends the session,
  /// also the findings judged at the end.
  mutating func apply(_ event: Event) -> [LiveFinding] {
    guard var session = current else { return [] }
    defer { current = session }
    var findings = SessionMachine.reduce(&session.state, event, profile: profile)
    if case .screenLeft = event.payload { session.left = true }
    if !session.judgedAtEnd, [.done, .cancelled, .abandoned].contains(session.state.phase) {
      session.judgedAtEnd = true
      // A failed load's error may be shown after the indicator hides: that one waits for `close`.
      let end = SessionMetrics.finalize(session.state, profile: profile).findings
      findings += end.filter { $0.kind != .errorNotShown }
    }
    return findings.map { LiveFinding(sessionID: session.id, violation: $0) }
  }

  /// Closes the current session: the end findings still owed (all of them for a session that
  /// never ended, else a missing error message).
  mutating func close() -> [LiveFinding] {
    guard let session = current else { return [] }
    current = nil
    let end = SessionMetrics.finalize(session.state, profile: profile).findings
    let owed = session.judgedAtEnd ? end.filter { $0.kind == .errorNotShown } : end
    return owed.map { LiveFinding(sessionID: session.id, violation: $0) }
  }

  /// A pull always starts a session (docs/events.md §1). A refresh or a tab's scroll-to-top starts one
  /// when the last session has ended, and a refresh that no finger started (tab re-select,
  /// programmatic) also when the last is a pull that never released: that pull was abandoned.
  /// Any other event joins the last session, even an ended one, because the contract lets a late
  /// `load_complete` or `error_shown` follow the hide; a refresh during a refresh joins too, where
  /// it is the `double_refresh` it is.
  private static func opensSession(_ payload: EventPayload, after phase: SessionPhase) -> Bool {
    let ended = phase == .done || phase == .cancelled || phase == .abandoned
    switch payload {
    case .pullStart:
      return true
    case .refreshStart(let trigger, let observed):
      // A refresh no finger of ours started: another trigger, or a pull only the app's
      // `onRefresh` saw.
      let unstarted = trigger != .pull || !observed
      return ended || (unstarted && (phase == .pulling || phase == .armed))
    case .scrollToTop:
      return ended
    default:
      return false
    }
  }
}
