/// Everything the state machine knows about one session after the events it has applied.
///
/// Besides the phase it keeps the facts the metrics need (the first arming, the first shown,
/// the hide that ended the session...), so metrics are read off the final state instead of
/// re-scanning the events.
public struct SessionState: Equatable, Sendable {
  public var phase: SessionPhase
  /// The session's screen: the first one any event names.
  public var screen: String?
  public var pullStartedAt: Double?
  /// The first point where the profile's rule armed the pull (the client's `armed` for
  /// profiles without a threshold).
  public var machineArm: ArmPoint?
  /// The client's first `armed` event.
  public var clientArm: ArmPoint?
  public var releaseDistance: Double?
  /// When the pull was released while armed: a refresh is owed from then on.
  public var armedReleaseAt: Double?
  /// The furthest finger distance of the pull (samples, `armed`, the release).
  public var furthestDistance: Double?
  /// The refresh started while the finger was still on the screen (early, or on reaching the
  /// threshold): the rest of the drag and its release belong to the refreshing session.
  public var fingerStillDown: Bool
  public var trigger: RefreshTrigger?
  public var refreshStartedAt: Double?
  public var indicatorShownAt: Double?
  public var indicatorHiddenAt: Double?
  public var loadCompletedAt: Double?
  public var loadSucceeded: Bool?
  /// The indicator went before any `load_complete` had been seen.
  public var hiddenBeforeLoad: Bool
  public var errorShownAfterFailure: Bool
  public var cacheInvalidated: Bool
  public var labelViolations: Int
  public var lastPullSampleAt: Double?
  /// The finger distance of the last pull sample (`pull_start` is 0).
  public var lastPullDistance: Double?
  /// Longest gap no longer than an ordinary step (`SessionMetrics.ordinaryStepMs`) between
  /// consecutive pull samples (`pull_start`, then each `pull_move`) during which the finger
  /// moved: a finger resting mid-pull sends nothing, and that is no stall.
  public var maxStepGapMs: Double?
  /// v1.2: the pull's pace, drawn movement (pt/px) over time (ms), summed across its ordinary
  /// steps (samples at most an ordinary step apart), before and after any long gap.
  public var paceMoved: Double
  public var paceMs: Double
  /// v1.2: the pull's gaps longer than an ordinary step across which the finger moved, each
  /// judged against the pull's whole pace (`maxSampleGapMs`), not the pace before it.
  public var longGaps: [PullGap]
  /// v1.2: the latest long gap while the samples of an ordinary step after it may still add to
  /// its movement: a page that froze delivers one ordinary step first and the finger's travel
  /// during the freeze a few ms later (Chromium does).
  public var openGap: PullGap?
  /// Largest |offset − distance × resistance| over the `pull_move`s that report an offset.
  public var maxOffsetError: Double?
  /// v1.2: when a `screen_left` ended the session (a pull cancelled, a refresh abandoned); `nil`
  /// when none did. The stuck and dropped refresh rules judge a left session at this time.
  public var screenLeftAt: Double?

  public init(
    phase: SessionPhase = .idle, screen: String? = nil, pullStartedAt: Double? = nil,
    machineArm: ArmPoint? = nil, clientArm: ArmPoint? = nil, releaseDistance: Double? = nil,
    armedReleaseAt: Double? = nil, furthestDistance: Double? = nil, fingerStillDown: Bool = false,
    trigger: RefreshTrigger? = nil, refreshStartedAt: Double? = nil,
    indicatorShownAt: Double? = nil, indicatorHiddenAt: Double? = nil,
    loadCompletedAt: Double? = nil, loadSucceeded: Bool? = nil, hiddenBeforeLoad: Bool = false,
    errorShownAfterFailure: Bool = false, cacheInvalidated: Bool = false,
    labelViolations: Int = 0, lastPullSampleAt: Double? = nil, lastPullDistance: Double? = nil,
    maxStepGapMs: Double? = nil, paceMoved: Double = 0, paceMs: Double = 0, longGaps: [PullGap] = [],
    openGap: PullGap? = nil,
    maxOffsetError: Double? = nil, screenLeftAt: Double? = nil
  ) {
    self.phase = phase
    self.screen = screen
    self.pullStartedAt = pullStartedAt
    self.machineArm = machineArm
    self.clientArm = clientArm
    self.releaseDistance = releaseDistance
    self.armedReleaseAt = armedReleaseAt
    self.furthestDistance = furthestDistance
    self.fingerStillDown = fingerStillDown
    self.trigger = trigger
    self.refreshStartedAt = refreshStartedAt
    self.indicatorShownAt = indicatorShownAt
    self.indicatorHiddenAt = indicatorHiddenAt
    self.loadCompletedAt = loadCompletedAt
    self.loadSucceeded = loadSucceeded
    self.hiddenBeforeLoad = hiddenBeforeLoad
    self.errorShownAfterFailure = errorShownAfterFailure
    self.cacheInvalidated = cacheInvalidated
    self.labelViolations = labelViolations
    self.lastPullSampleAt = lastPullSampleAt
    self.lastPullDistance = lastPullDistance
    self.maxStepGapMs = maxStepGapMs
    self.paceMoved = paceMoved
    self.paceMs = paceMs
    self.longGaps = longGaps
    self.openGap = openGap
    self.maxOffsetError = maxOffsetError
    self.screenLeftAt = screenLeftAt
  }
}

extension SessionState {
  /// Longest time between consecutive pull samples during which the finger moved, as QA item 1
  /// judges it (v1.2, by pace): every gap of an ordinary step, and each longer one whose movement
  /// is in proportion to the pull's pace as far as the pull has been seen (`PullGap.counts`).
  /// Judged against the whole pull, a page frozen after one quick first step still shows its
  /// catch-up against the ordinary pace that follows it.
  public var maxSampleGapMs: Double? {
    var longest = maxStepGapMs
    func judge(_ gap: PullGap) {
      if gap.counts(paceMoved: paceMoved, paceMs: paceMs) { longest = max(longest ?? 0, gap.ms) }
    }
    longGaps.forEach(judge)
    openGap.map(judge)
    return longest
  }
}

/// A gap between pull samples longer than an ordinary step: from the sample before it (its time
/// and drawn distance) to the first after it, with the fastest drawn movement seen from the
/// sample before it to that first sample or one within an ordinary step after it.
public struct PullGap: Equatable, Sendable {
  public var from: Double
  public var fromDrawn: Double
  public var to: Double
  /// That fastest movement (drawn) and the time it took; 0 and 0 while the finger has not moved
  /// beyond the drag tolerance.
  public var moved: Double
  public var over: Double

  public init(from: Double, fromDrawn: Double, to: Double, moved: Double = 0, over: Double = 0) {
    (self.from, self.fromDrawn, self.to, self.moved, self.over) = (from, fromDrawn, to, moved, over)
  }

  public var ms: Double { to - from }

  /// Takes a sample `over` ms after the gap's start, `moved` farther (drawn), when the finger
  /// moved beyond the drag tolerance and faster than any sample so far.
  mutating func take(moved: Double, over: Double) {
    guard moved > SessionMetrics.dragTolerance + SessionMetrics.comparisonSlack else { return }
    if self.moved == 0 || moved * self.over > self.moved * over { (self.moved, self.over) = (moved, over) }
  }

  /// A stutter: the finger moved across it by at least `stutterShare` of what the pull's pace
  /// covers in that time, or the pull has no ordinary step to tell its pace.
  func counts(paceMoved: Double, paceMs: Double) -> Bool {
    guard moved > 0 else { return false }
    guard paceMs > 0 else { return true }
    return moved >= SessionMetrics.stutterShare * paceMoved / paceMs * over - SessionMetrics.comparisonSlack
  }
}
