public import PullParityCore

/// Records an app's pull-to-refresh as the event log `pullparity` ingests (docs/events.md), and
/// checks it live against the app's behaviour profile.
///
/// Call it from the pull-to-refresh code, one method per moment of the gesture:
///
/// | call | event |
/// |---|---|
/// | `pullStart()` | `pull_start` (opens a session) |
/// | `pullMove(distance:offset:)` | `pull_move` |
/// | `armed(distance:)`, `disarmed(distance:)`, `release(distance:)` | `armed`, `disarmed`, `release` |
/// | `cancel(reason:)` | `cancel` |
/// | `label(_:state:)` | `label` |
/// | `refreshStart(trigger:gestureObserved:)` | `refresh_start` (opens a session when no pull or refresh is in progress; `gestureObserved: false` for a pull only a library's `onRefresh` saw) |
/// | `indicatorShown(_:)`, `indicatorHidden()` | `indicator_shown`, `indicator_hidden` |
/// | `fetchStart()`, `loadComplete(ok:error:)` | `fetch_start`, `load_complete` |
/// | `errorShown(message:)`, `contentCleared()` | `error_shown`, `content_cleared` |
/// | `reveal(progress:visible:)`, `scrollToTop()`, `cacheInvalidated(key:)` | `reveal`, `scroll_to_top`, `cache_invalidated` |
/// | `record(_:)` | any ``EventPayload`` |
/// | `screenLeft(reason:)` | `screen_left`, only while a session is open; the session ends there |
/// | `closeSession()` | no event: judges what the current session still owes |
///
/// Each event is stamped with a time-ordered `event_id` (UUIDv7), the `session_id`, `ts` (epoch
/// ms with fraction, from ``RecorderClock``, re-anchored to wall time only when a session opens),
/// a `seq` counting from 0 within the session, the app's identity and the `install_id`, then
/// written as one JSON line to the ``EventSink``. ``behaviour`` gives the app the profile's
/// numbers to build its gesture with, and `onFinding` hears every finding of the Core state
/// machine the moment the event that decides it is recorded.
///
/// A value the format forbids (a negative or non-finite distance, a reveal progress outside
/// 0–1, a negative `visible`) is refused: no line is written and `onError` hears a
/// ``RecorderError`` naming the method and the field. Exactly the lines ingest would quarantine
/// are refused: a negative offset or an indicator count of 0 is written (and judged).
///
/// The rest of the module: ``PullToRefreshBehaviour`` (the profile's numbers as constants),
/// ``hold(atLeast:clock:isolation:_:)`` (the minimum visible time), the sinks ``FileEventSink``
/// (with ``FileSinkError``), ``HTTPEventSink`` (with ``HTTPSinkError``, posting to a collector)
/// and ``ClosureEventSink`` behind ``EventSink``, ``RecorderClock`` and
/// ``SystemRecorderClock``, ``EventIDSource`` and ``UUIDv7Generator``, ``InstallID`` (an install
/// id kept in a file), ``LiveFinding``, and ``EventLineEncoder`` for an ``Event`` built elsewhere.
///
/// Thread-safe: every call takes one lock (see `Locked`), so the main actor and a load task may
/// record at once, and each session's `seq`s are contiguous in the order of the calls. The sink
/// runs under the lock; `onFinding` and `onError` run outside it, so they may call back into the
/// recorder. Nothing here throws into the app.
public final class PullParityRecorder: Sendable {
  /// The profile's numbers, from the same catalog the live check and the pipeline use.
  public let behaviour: PullToRefreshBehaviour
  private let identity: Identity
  private let sink: any EventSink
  private let onFinding: (@Sendable (LiveFinding) -> Void)?
  private let onError: (@Sendable (RecorderError) -> Void)?
  private let state: Locked<MutableState>

  private struct Identity: Sendable {
    var platform: String
    var app: String
    var profile: String?
    var appVersion: String?
    var osVersion: String?
    var device: String?
    var installID: String?
  }

  private struct MutableState {
    var tracker: SessionTracker
    /// Re-anchored when a session opens (``RecorderClock/reanchored()``), so this recorder's
    /// sessions are never moved by another's.
    var clock: any RecorderClock
    var screen: String?
    var empty: Bool?
  }

  /// - Parameters:
  ///   - profile: the profile's name when it is not `app`'s; picks ``behaviour`` either way.
  ///   - installID: stamped as `install_id` on every event: a random id kept per app install
  ///     (``InstallID/stored(at:)``); `nil` for none. One ingest would refuse (empty, over 128
  ///     characters) is left out, and `onError` hears it.
  ///   - profiles: where the profile is looked up; the built-in profiles unless given.
  ///   - onFinding: called for every finding of the live check (a debug build can
  ///     `assertionFailure` on `.flash`); `nil` to only record.
  ///   - onError: hears each value the recorder refused, with no line written; `nil` to refuse
  ///     silently.
  public init(
    app: String, appVersion: String? = nil, platform: String = "ios", profile: String? = nil,
    screen: String? = nil, osVersion: String? = nil, device: String? = nil, installID: String? = nil,
    sink: any EventSink, clock: any RecorderClock = SystemRecorderClock(),
    ids: any EventIDSource = UUIDv7Generator(), profiles: ProfileCatalog = ProfileCatalog(),
    onFinding: (@Sendable (LiveFinding) -> Void)? = nil, onError: (@Sendable (RecorderError) -> Void)? = nil
  ) {
    let resolved = profiles.resolve(profile ?? app)
    behaviour = PullToRefreshBehaviour(resolved)
    var stamped = installID
    if let installID, !InstallID.isValid(installID) {
      // A bad id costs the id, not the events: every line would be quarantined with it.
      stamped = nil
      let shown = installID.count > 40 ? installID.prefix(40) + "…" : installID
      onError?(
        RecorderError(method: "init", field: "installID", requirement: "1–128 characters", value: "\"\(shown)\""))
    }
    identity = Identity(
      platform: platform, app: app, profile: profile, appVersion: appVersion, osVersion: osVersion,
      device: device, installID: stamped)
    self.sink = sink
    self.onFinding = onFinding
    self.onError = onError
    state = Locked(MutableState(tracker: SessionTracker(profile: resolved, ids: ids), clock: clock, screen: screen))
  }

  /// The screen stamped on the next events (`HomeView`, `feed`).
  public var screen: String? {
    get { state.withLock { $0.screen } }
    set { state.withLock { $0.screen = newValue } }
  }

  /// Whether the screen has no content, stamped on the next events; `nil` leaves it out.
  public var empty: Bool? {
    get { state.withLock { $0.empty } }
    set { state.withLock { $0.empty = newValue } }
  }

  /// The session the next event joins unless it starts a new one; `nil` before the first.
  public var currentSessionID: String? { state.withLock { $0.tracker.currentSessionID } }

  public func pullStart() { record(.pullStart) }
  public func pullMove(distance: Double, offset: Double? = nil) {
    record(.pullMove(distance: distance, offset: offset))
  }
  public func armed(distance: Double) { record(.armed(distance: distance)) }
  public func disarmed(distance: Double) { record(.disarmed(distance: distance)) }
  public func release(distance: Double) { record(.release(distance: distance)) }
  public func cancel(reason: String? = nil) { record(.cancel(reason: reason)) }
  public func label(_ text: String, state: LabelState) { record(.label(text: text, state: state)) }
  /// `gestureObserved: false` for a pull refresh the app only heard of through a library's
  /// `onRefresh` (no `pullStart` came before it): it opens a session as a programmatic refresh does.
  public func refreshStart(trigger: RefreshTrigger = .pull, gestureObserved: Bool = true) {
    record(.refreshStart(trigger: trigger, gestureObserved: gestureObserved))
  }
  public func indicatorShown(_ config: IndicatorConfig? = nil) { record(.indicatorShown(config)) }
  public func indicatorHidden() { record(.indicatorHidden) }
  public func loadComplete(ok: Bool, error: String? = nil) { record(.loadComplete(ok: ok, error: error)) }
  public func errorShown(message: String? = nil) { record(.errorShown(message: message)) }
  public func contentCleared() { record(.contentCleared) }
  public func reveal(progress: Double, visible: Int) { record(.reveal(progress: progress, visible: visible)) }
  public func scrollToTop() { record(.scrollToTop) }
  public func cacheInvalidated(key: String) { record(.cacheInvalidated(key: key)) }
  public func fetchStart() { record(.fetchStart) }
  /// The screen of the session went away (contract v1.2): `screen_left` with `reason`
  /// (`navigation`, `background`, `closed`, or another token). Recorded only while a session
  /// is open (a pull, or a refresh not yet hidden), so at most once per session; the session
  /// ends there (a pull as cancelled, a refresh as abandoned), what else it would record (a load
  /// that ends later, the indicator hidden) is not written, and the next pull or refresh opens
  /// a new session. Call it when the screen disappears or the app leaves the foreground
  /// (docs/instrumenting.md: UIKit's `viewWillDisappear`, SwiftUI's `onDisappear` and scene phase).
  public func screenLeft(reason: String? = nil) { record(.screenLeft(reason: reason)) }

  /// Records any event: the typed methods above all come here. A value the format forbids is
  /// refused (``RecorderError``): no line, no change to the session, and `onError` hears it.
  public func record(_ payload: EventPayload) {
    if let refusal = RecorderError.refusal(of: payload) {
      onError?(refusal)
      return
    }
    let findings = state.withLock { state -> [LiveFinding] in
      // Nothing open to leave; nothing more of a session whose screen went away.
      if case .screenLeft = payload, !state.tracker.sessionOpen { return [] }
      if state.tracker.joinsLeftSession(payload) { return [] }
      // The clock is read under the lock so that `ts` and `seq` agree on the order.
      if state.tracker.opensSession(with: payload) { state.clock = state.clock.reanchored() }
      let timestamp = state.clock.epochMilliseconds()
      let stamp = state.tracker.stamp(payload, at: timestamp)
      let event = Event(
        eventID: stamp.eventID, sessionID: stamp.sessionID, timestamp: timestamp, seq: stamp.seq,
        platform: identity.platform, app: identity.app, profile: identity.profile,
        appVersion: identity.appVersion, osVersion: identity.osVersion, device: identity.device,
        screen: state.screen, empty: state.empty, installID: identity.installID, payload: payload)
      sink.write(EventLineEncoder.line(for: event))
      return stamp.closing + state.tracker.apply(event)
    }
    report(findings)
  }

  /// Ends the current session without an event: what it still owes is judged now (an error
  /// never shown after a failed load, or everything for a session that never ended). Call it
  /// when the screen goes away; the next event starts a new session.
  public func closeSession() {
    report(state.withLock { $0.tracker.close() })
  }

  private func report(_ findings: [LiveFinding]) {
    guard let onFinding else { return }
    for finding in findings { onFinding(finding) }
  }
}
