/// The per-session metrics of docs/events.md §5, read off a session's final state.
///
/// `nil` is SQL's NULL: the metric did not apply (never armed, never shown...). The hold flags
/// are `nil` unless the session completed, and `holdCompliant` follows SQL's three-valued
/// `NOT flash AND NOT premature_hide AND NOT late_hide`: false as soon as one is true, unknown
/// when none is true but one is unknown.
public struct SessionMetrics: Equatable, Sendable {
  public var outcome: SessionOutcome
  public var trigger: RefreshTrigger?
  public var timeToArmMs: Double?
  public var armDistance: Double?
  public var clientArmDistance: Double?
  public var releaseDistance: Double?
  public var loadMs: Double?
  public var visibleMs: Double?
  public var flash: Bool?
  public var prematureHide: Bool?
  public var lateHide: Bool?
  public var holdCompliant: Bool?
  public var labelViolations: Int?
  /// The client's first `armed` was judged against the profile's arming (threshold profiles
  /// whose client armed); `nil` when there was nothing to judge.
  public var armMismatch: Bool?
  public var loadSucceeded: Bool?
  public var maxSampleGapMs: Double?
  public var maxOffsetError: Double?
  /// v1.1. `true` for a pull refresh whose gesture was recorded, `false` for one only the
  /// app's `onRefresh` saw; `nil` for other triggers.
  public var gestureObserved: Bool?
  /// The indicator was still up `stuck_after_ms` after `refresh_start`; `nil` without a
  /// refresh, or while the data has not moved past that time.
  public var stuckRefresh: Bool?
  /// Released while armed and no `refresh_start` within `refresh_within_ms`; `nil` without an
  /// armed release, or while the data has not moved past that time.
  public var droppedRefresh: Bool?
  /// v1.2: a refresh whose session recorded no pull, started while the previous one on the same
  /// install and screen ran or within `repeat_within_ms` of its start; `nil` without an
  /// `install_id` or a refresh.
  public var repeatedRefresh: Bool?
  /// A cancelled pull that reached `nearMissShare` of the threshold (drawn); `nil` unless
  /// cancelled under a profile with a threshold.
  public var nearMiss: Bool?
  /// v1.2: the screen was left during the refresh (outcome `abandoned`); `nil` without a refresh.
  public var abandonedDuringRefresh: Bool?

  public init(
    outcome: SessionOutcome, trigger: RefreshTrigger? = nil, timeToArmMs: Double? = nil,
    armDistance: Double? = nil, clientArmDistance: Double? = nil, releaseDistance: Double? = nil,
    loadMs: Double? = nil, visibleMs: Double? = nil, flash: Bool? = nil,
    prematureHide: Bool? = nil, lateHide: Bool? = nil, holdCompliant: Bool? = nil,
    labelViolations: Int? = nil, armMismatch: Bool? = nil, loadSucceeded: Bool? = nil, maxSampleGapMs: Double? = nil,
    maxOffsetError: Double? = nil, gestureObserved: Bool? = nil, stuckRefresh: Bool? = nil,
    droppedRefresh: Bool? = nil, repeatedRefresh: Bool? = nil, nearMiss: Bool? = nil,
    abandonedDuringRefresh: Bool? = nil
  ) {
    self.outcome = outcome
    self.trigger = trigger
    self.timeToArmMs = timeToArmMs
    self.armDistance = armDistance
    self.clientArmDistance = clientArmDistance
    self.releaseDistance = releaseDistance
    self.loadMs = loadMs
    self.visibleMs = visibleMs
    self.flash = flash
    self.prematureHide = prematureHide
    self.lateHide = lateHide
    self.holdCompliant = holdCompliant
    self.labelViolations = labelViolations
    self.armMismatch = armMismatch
    self.loadSucceeded = loadSucceeded
    self.maxSampleGapMs = maxSampleGapMs
    self.maxOffsetError = maxOffsetError
    self.gestureObserved = gestureObserved
    self.stuckRefresh = stuckRefresh
    self.droppedRefresh = droppedRefresh
    self.repeatedRefresh = repeatedRefresh
    self.nearMiss = nearMiss
    self.abandonedDuringRefresh = abandonedDuringRefresh
  }

  /// How far (pt/px) the client may arm from the profile's arming sample.
  public static let armMismatchTolerance = 2.0

  /// How far (drawn pt/px) the indicator may stray from the finger: the drag-tracking check's
  /// tolerance, and the movement below which a gap between samples is a resting finger.
  public static let dragTolerance = 2.0

  /// v1.2, drag tracking by pace: samples at most this far apart (ms) are ordinary steps, which
  /// measure the pull's pace; 100 ms is 10 frames a second, where a drag visibly stutters (the
  /// QA checklist's longest gap).
  public static let ordinaryStepMs = 100.0

  /// v1.2: a gap longer than an ordinary step is a stutter only when the finger's drawn movement
  /// across it is at least this share of what the pull's pace covers in that time. A frozen page
  /// shows about all of it (1); a rest of 400 ms then one 16 ms step shows 16/400 = 0.04.
  public static let stutterShare = 0.5

  /// The share of the threshold (drawn) a cancelled pull must reach to be a near miss.
  public static let nearMissShare = 0.8

  /// Slack for the strict comparisons (ms, pt/px): far below anything a client can measure,
  /// enough that binary rounding (33.34 − 31.34 = 2.0000000000000036, a fraction of a
  /// millisecond on an epoch timestamp) never decides a finding.
  public static let comparisonSlack = 1e-6

  /// The metrics of a session whose events have all been applied, and the findings that can
  /// only be judged once the session is over: the hold (completed sessions), the client's
  /// arming (threshold profiles) and the error after a failed load.
  ///
  /// `horizon` is how far the data has moved (at least the session's last event): the stuck and
  /// dropped refresh rules wait for it to pass their time. `judgeAgainAt` is the earliest
  /// horizon at which a judgement still open could be made. `previous` carries the previous
  /// refresh on the same install and screen (its `horizon` is not read).
  public static func finalize(
    _ state: SessionState, profile: Profile, installID: String? = nil, horizon: Double = -.infinity,
    previous: SessionContext = SessionContext()
  ) -> (metrics: SessionMetrics, findings: [Violation], judgeAgainAt: Double?, pending: [PendingJudgement]) {
    let outcome = SessionOutcome(phase: state.phase)
    var metrics = SessionMetrics(
      outcome: outcome,
      trigger: state.trigger ?? (state.pullStartedAt != nil ? .pull : nil),
      timeToArmMs: difference(state.machineArm?.at, minus: state.pullStartedAt),
      armDistance: state.machineArm?.distance,
      clientArmDistance: state.clientArm?.distance,
      releaseDistance: state.releaseDistance,
      loadMs: difference(state.loadCompletedAt, minus: state.refreshStartedAt),
      visibleMs: difference(state.indicatorHiddenAt, minus: state.indicatorShownAt),
      labelViolations: profile.labels == nil ? nil : state.labelViolations,
      loadSucceeded: state.loadSucceeded,
      maxSampleGapMs: state.maxSampleGapMs,
      maxOffsetError: state.maxOffsetError,
      gestureObserved: state.trigger == .pull || (state.trigger == nil && state.pullStartedAt != nil)
        ? state.pullStartedAt != nil : nil,
      nearMiss: nearMiss(state, outcome: outcome, profile: profile),
      abandonedDuringRefresh: state.refreshStartedAt == nil ? nil : outcome == .abandoned
    )
    var findings: [Violation] = []
    if outcome == .completed, let hiddenAt = state.indicatorHiddenAt {
      findings += judgeHold(&metrics, state, hiddenAt: hiddenAt, profile: profile)
    }
    if profile.armThreshold != nil, let clientArm = state.clientArm {
      findings += judgeArming(&metrics, client: clientArm, machine: state.machineArm, profile: profile)
    }
    if profile.errorMustBeShown, outcome == .completed, state.loadSucceeded == false, !state.errorShownAfterFailure {
      findings.append(
        Violation(
          kind: .errorNotShown, at: state.loadCompletedAt ?? state.indicatorHiddenAt ?? 0,
          expected: "error_shown after the failed load", actual: "no error shown"))
    }
    var waits = FieldFailures(state: state, profile: profile, horizon: horizon)
    findings += waits.judge(&metrics)
    if let installID, !installID.isEmpty, let started = state.refreshStartedAt {
      findings += FieldFailures.judgeRepeat(
        &metrics, startedAt: started, pulled: state.pullStartedAt != nil, previous: previous, profile: profile)
    }
    return (metrics, findings, waits.judgeAgainAt, waits.pending)
  }

  private static func nearMiss(_ state: SessionState, outcome: SessionOutcome, profile: Profile) -> Bool? {
    guard outcome == .cancelled, let threshold = profile.armThreshold else { return nil }
    let drawn = profile.resistance.drawn(atFinger: state.furthestDistance ?? 0)
    return drawn >= nearMissShare * threshold - comparisonSlack
  }

  /// Flash, premature and late hide of a completed session, and whether it held as promised.
  private static func judgeHold(
    _ metrics: inout SessionMetrics, _ state: SessionState, hiddenAt: Double, profile: Profile
  ) -> [Violation] {
    var findings: [Violation] = []
    if let visible = metrics.visibleMs {
      metrics.flash = flagged(visible < profile.minHoldMs - comparisonSlack, in: &findings) {
        Violation(
          kind: .flash, at: hiddenAt, expected: "visible ≥ \(NumberText.format(profile.minHoldMs)) ms",
          actual: "visible \(NumberText.format(visible)) ms")
      }
    }
    metrics.prematureHide = flagged(state.hiddenBeforeLoad, in: &findings) {
      Violation(
        kind: .prematureHide, at: hiddenAt, expected: "hidden after load_complete",
        actual: "hidden before load_complete")
    }
    if let shownAt = state.indicatorShownAt, let loadAt = state.loadCompletedAt {
      let deadline = max(shownAt + profile.minHoldMs, loadAt) + profile.hideSlackMs
      metrics.lateHide = flagged(hiddenAt > deadline + comparisonSlack, in: &findings) {
        Violation(
          kind: .lateHide, at: hiddenAt, expected: "hidden ≤ \(NumberText.format(deadline - shownAt)) ms after shown",
          actual: "hidden \(NumberText.format(hiddenAt - shownAt)) ms after shown")
      }
    }
    metrics.holdCompliant = notAny(metrics.flash, metrics.prematureHide, metrics.lateHide)
    return findings
  }

  /// The client's first `armed` against where the profile armed: a mismatch when the machine
  /// never armed, or armed more than `armMismatchTolerance` away.
  private static func judgeArming(
    _ metrics: inout SessionMetrics, client: ArmPoint, machine: ArmPoint?, profile: Profile
  ) -> [Violation] {
    guard let machine else {
      metrics.armMismatch = true
      return [
        Violation(
          kind: .armMismatch, at: client.at,
          expected: "not armed (threshold \(NumberText.format(profile.armThreshold ?? 0)) never reached)",
          actual: "armed at \(NumberText.format(client.distance))")
      ]
    }
    var findings: [Violation] = []
    let mismatch = abs(client.distance - machine.distance) > armMismatchTolerance + comparisonSlack
    metrics.armMismatch = flagged(mismatch, in: &findings) {
      Violation(
        kind: .armMismatch, at: client.at, expected: "armed at \(NumberText.format(machine.distance))",
        actual: "armed at \(NumberText.format(client.distance))")
    }
    return findings
  }

  /// `broken`, with its violation added to `findings` when it is: a metric's flag and its
  /// finding are set in one place, so they cannot disagree.
  static func flagged(_ broken: Bool, in findings: inout [Violation], _ violation: () -> Violation) -> Bool {
    if broken { findings.append(violation()) }
    return broken
  }

  private static func difference(_ end: Double?, minus start: Double?) -> Double? {
    guard let end, let start else { return nil }
    return end - start
  }

  /// SQL's `NOT a AND NOT b AND NOT c` over three-valued flags.
  private static func notAny(_ flags: Bool?...) -> Bool? {
    if flags.contains(true) { return false }
    if flags.contains(nil) { return nil }
    return true
  }
}
