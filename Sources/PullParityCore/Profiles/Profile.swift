/// The behaviour contract one app promises on every platform (docs/events.md §3).
///
/// Profiles are data: the state machine reads these numbers and rules and has no per-app branch,
/// so a new app needs a profile, not code.
public struct Profile: Equatable, Sendable, Codable {
  public var name: String
  /// Bumped whenever a number or rule changes; derived rows record it.
  public var version: Int
  /// Arming point on `distance × resistance`. `nil`: trust the client's `armed`.
  public var armThreshold: Double?
  /// How far the indicator is drawn for a finger distance: a factor or a curve.
  public var resistance: Resistance
  /// Minimum time the refreshing indicator stays visible.
  public var minHoldMs: Double
  /// How long after the hold or the load may the indicator take to go (fade-outs, a frame).
  public var hideSlackMs: Double
  /// What an `indicator_shown` is checked against: count, stagger and cycle, each only where
  /// both the profile and the event give it. `kind` describes and is not checked; an
  /// `indicator_shown` that reports no indicator is not checked either.
  public var indicator: IndicatorConfig?
  /// Exact label copy; `nil` when the app shows no labels.
  public var labels: LabelCopy?
  /// Waveform bars revealed while pulling; `nil` when the indicator has no reveal.
  public var reveal: RevealRule?
  /// Screens on which the page cache must be invalidated before the fetch.
  public var cacheInvalidationScreens: [String]
  /// A failed load must be followed by an `error_shown`.
  public var errorMustBeShown: Bool
  /// The platform the parity report and the QA checklist compare the others with, when it has
  /// sessions; otherwise (or when `nil`) the first in name order.
  public var referencePlatform: String?
  /// What distances are measured in; reports label them with it.
  public var unit: DistanceUnit
  /// One logical screen per key, with each platform's own name for it
  /// (`"feed": ["pwa": "feed", "ios": "FeedView"]`), so screens group across platforms.
  public var screens: [String: [String: String]]
  /// How many sessions, in percent of those judged, may break each rule before the platform
  /// fails it; a rule not named here has a budget of 0.
  public var budgets: [ProfileRule: Double]
  /// A refresh whose indicator is still up this long after `refresh_start` is stuck.
  public var stuckAfterMs: Double
  /// A pull released while armed must start its refresh within this time, or it was dropped.
  public var refreshWithinMs: Double
  /// A refresh starting within this time of the end of the previous one on the same install
  /// and screen is a repeated refresh.
  public var repeatWithinMs: Double
  /// The platform starts the refresh when the pull reaches the threshold, before the finger
  /// lifts: then a `refresh_start` while armed is the expected path, not an early refresh.
  public var refreshOnThreshold: Bool

  /// Defaults of the v1.1 rules' numbers (docs/events.md §3): 30 s is past any load a user
  /// waits for and short of the minute-long request timeouts that leave a spinner up; 1 s is
  /// several frames past a release, far longer than any client takes to start a refresh it
  /// means to; 1 s between one refresh's end and the next start is quicker than a person can
  /// pull again, so only a double-fired refresh falls inside it.
  public static let defaultStuckAfterMs = 30_000.0
  public static let defaultRefreshWithinMs = 1_000.0
  public static let defaultRepeatWithinMs = 1_000.0

  public init(
    name: String, version: Int = 1, armThreshold: Double?, resistance: Resistance = .factor(1),
    minHoldMs: Double, hideSlackMs: Double, indicator: IndicatorConfig? = nil,
    labels: LabelCopy? = nil, reveal: RevealRule? = nil, cacheInvalidationScreens: [String] = [],
    errorMustBeShown: Bool = false, referencePlatform: String? = nil, unit: DistanceUnit = .pt,
    screens: [String: [String: String]] = [:], budgets: [ProfileRule: Double] = [:],
    stuckAfterMs: Double = defaultStuckAfterMs, refreshWithinMs: Double = defaultRefreshWithinMs,
    repeatWithinMs: Double = defaultRepeatWithinMs, refreshOnThreshold: Bool = false
  ) {
    self.name = name
    self.version = version
    self.armThreshold = armThreshold
    self.resistance = resistance
    self.minHoldMs = minHoldMs
    self.hideSlackMs = hideSlackMs
    self.indicator = indicator
    self.labels = labels
    self.reveal = reveal
    self.cacheInvalidationScreens = cacheInvalidationScreens
    self.errorMustBeShown = errorMustBeShown
    self.referencePlatform = referencePlatform
    self.unit = unit
    self.screens = screens
    self.budgets = budgets
    self.stuckAfterMs = stuckAfterMs
    self.refreshWithinMs = refreshWithinMs
    self.repeatWithinMs = repeatWithinMs
    self.refreshOnThreshold = refreshOnThreshold
  }

  /// Whether `distance` (finger travel) is at or past this profile's arming point, with a
  /// hair of slack so that binary rounding (100 × 0.29 = 28.999999999999996) cannot keep a
  /// pull that reaches the threshold from arming.
  public func arms(atDistance distance: Double) -> Bool {
    guard let armThreshold else { return false }
    return resistance.drawn(atFinger: distance) >= armThreshold - SessionMetrics.comparisonSlack
  }

  /// The share of judged sessions (percent) that may break `rule`.
  public func budget(for rule: ProfileRule) -> Double { budgets[rule] ?? 0 }

  /// The logical screen a platform's screen belongs to: the key of `screens` that maps
  /// `platform` to `screen`, else the screen's own name. Names match byte for byte, as
  /// `--screen` selects them in the database.
  public func logicalScreen(_ screen: String, on platform: String) -> String {
    let name = ByteIdentity(screen)
    for (logical, names) in screens where names[platform].map({ ByteIdentity($0) == name }) == true {
      return logical
    }
    return screen
  }

  /// The profile sessions of an app with no profile are derived with: it trusts the client,
  /// requires no hold and checks no copy, so only the state machine's own rules apply.
  public static func unconstrained(named name: String) -> Profile {
    Profile(name: name, version: 0, armThreshold: nil, minHoldMs: 0, hideSlackMs: 250)
  }

  /// Reads a profile file entry. Only `name` and `min_hold_ms` are required; the rest default
  /// to an app that trusts its client: no threshold, resistance 1, 250 ms slack, no copy,
  /// distances in pt, no screen mapping, budgets of 0, and the v1.1 rules' default times.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decode(String.self, forKey: .name)
    version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
    armThreshold = try c.decodeIfPresent(Double.self, forKey: .armThreshold)
    resistance = try c.decodeIfPresent(Resistance.self, forKey: .resistance) ?? .factor(1)
    minHoldMs = try c.decode(Double.self, forKey: .minHoldMs)
    hideSlackMs = try c.decodeIfPresent(Double.self, forKey: .hideSlackMs) ?? 250
    indicator = try c.decodeIfPresent(IndicatorConfig.self, forKey: .indicator)
    labels = try c.decodeIfPresent(LabelCopy.self, forKey: .labels)
    reveal = try c.decodeIfPresent(RevealRule.self, forKey: .reveal)
    cacheInvalidationScreens = try c.decodeIfPresent([String].self, forKey: .cacheInvalidationScreens) ?? []
    errorMustBeShown = try c.decodeIfPresent(Bool.self, forKey: .errorMustBeShown) ?? false
    referencePlatform = try c.decodeIfPresent(String.self, forKey: .referencePlatform)
    unit = try c.decodeIfPresent(DistanceUnit.self, forKey: .unit) ?? .pt
    screens = try c.decodeIfPresent([String: [String: String]].self, forKey: .screens) ?? [:]
    budgets = try c.decodeIfPresent([ProfileRule: Double].self, forKey: .budgets) ?? [:]
    stuckAfterMs = try c.decodeIfPresent(Double.self, forKey: .stuckAfterMs) ?? Self.defaultStuckAfterMs
    refreshWithinMs = try c.decodeIfPresent(Double.self, forKey: .refreshWithinMs) ?? Self.defaultRefreshWithinMs
    repeatWithinMs = try c.decodeIfPresent(Double.self, forKey: .repeatWithinMs) ?? Self.defaultRepeatWithinMs
    refreshOnThreshold = try c.decodeIfPresent(Bool.self, forKey: .refreshOnThreshold) ?? false
  }

  /// The file format's keys; the profile file validator lists them to reject unknown ones.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case name, version, resistance, indicator, labels, reveal, unit, screens, budgets
    case armThreshold = "arm_threshold"
    case minHoldMs = "min_hold_ms"
    case hideSlackMs = "hide_slack_ms"
    case cacheInvalidationScreens = "cache_invalidation_screens"
    case errorMustBeShown = "error_must_be_shown"
    case referencePlatform = "reference_platform"
    case stuckAfterMs = "stuck_after_ms"
    case refreshWithinMs = "refresh_within_ms"
    case repeatWithinMs = "repeat_within_ms"
    case refreshOnThreshold = "refresh_on_threshold"
  }
}
