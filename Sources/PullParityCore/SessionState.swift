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
  /// Longest time between consecutive pull samples (`pull_start`, then each `pull_move`).
  public var maxSampleGapMs: Double?
  /// Largest |offset − distance × resistance| over the `pull_move`s that report an offset.
  public var maxOffsetError: Double?

  public init(
    phase: SessionPhase = .idle, screen: String? = nil, pullStartedAt: Double? = nil,
    machineArm: ArmPoint? = nil, clientArm: ArmPoint? = nil, releaseDistance: Double? = nil,
    trigger: RefreshTrigger? = nil, refreshStartedAt: Double? = nil,
    indicatorShownAt: Double? = nil, indicatorHiddenAt: Double? = nil,
    loadCompletedAt: Double? = nil, loadSucceeded: Bool? = nil, hiddenBeforeLoad: Bool = false,
    errorShownAfterFailure: Bool = false, cacheInvalidated: Bool = false,
    labelViolations: Int = 0, lastPullSampleAt: Double? = nil,
    maxSampleGapMs: Double? = nil, maxOffsetError: Double? = nil
  ) {
    self.phase = phase
    self.screen = screen
    self.pullStartedAt = pullStartedAt
    self.machineArm = machineArm
    self.clientArm = clientArm
    self.releaseDistance = releaseDistance
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
    self.maxSampleGapMs = maxSampleGapMs
    self.maxOffsetError = maxOffsetError
  }
}
