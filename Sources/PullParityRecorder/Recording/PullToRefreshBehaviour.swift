public import PullParityCore

/// A profile's numbers as the constants an app's pull-to-refresh is built with: the very
/// values `pullparity` judges the app's logs by, so the two cannot drift apart.
public struct PullToRefreshBehaviour: Equatable, Sendable {
  public let profile: Profile

  public init(_ profile: Profile) {
    self.profile = profile
  }

  /// The behaviour of `name` in `profiles` (built-in profiles by default); an unknown name gets
  /// the unconstrained profile, as ingest does.
  public init(profileNamed name: String, in profiles: ProfileCatalog = ProfileCatalog()) {
    self.init(profiles.resolve(name))
  }

  /// The arming point on `distance × resistance`; `nil` when the platform's control decides.
  public var armThreshold: Double? { profile.armThreshold }
  /// A factor or a curve: draw with ``indicatorOffset(forPull:)`` rather than multiplying.
  public var resistance: Resistance { profile.resistance }
  public var minimumHoldMs: Double { profile.minHoldMs }
  /// How long the refreshing indicator must stay visible, for ``hold(atLeast:_:)``.
  public var minimumHold: Duration { .milliseconds(profile.minHoldMs) }
  public var hideSlackMs: Double { profile.hideSlackMs }
  public var indicator: IndicatorConfig? { profile.indicator }
  public var labels: LabelCopy? { profile.labels }
  /// The v1.1 rules' times: how long a refresh may run, how soon an armed release must start
  /// it, and how soon after one ends another counts as a repeat.
  public var stuckAfterMs: Double { profile.stuckAfterMs }
  public var refreshWithinMs: Double { profile.refreshWithinMs }
  public var repeatWithinMs: Double { profile.repeatWithinMs }
  /// Whether the platform fires the refresh on reaching the threshold, before the release.
  public var refreshesOnThreshold: Bool { profile.refreshOnThreshold }

  /// Where to draw the indicator for a finger travel of `distance`.
  public func indicatorOffset(forPull distance: Double) -> Double {
    profile.resistance.drawn(atFinger: distance)
  }

  /// Whether a release at `distance` refreshes: the same rule, with the same rounding slack,
  /// as the pipeline's state machine.
  public func arms(atPull distance: Double) -> Bool {
    profile.arms(atDistance: distance)
  }

  /// The copy to show for `state`; `nil` when the app shows no labels.
  public func label(for state: LabelState) -> String? {
    profile.labels?.text(for: state)
  }

  /// The reveal progress (0–1) of a pull of `distance`; `nil` without a waveform reveal.
  public func revealProgress(forPull distance: Double) -> Double? {
    guard let rule = profile.reveal, rule.fullPullDistance > 0 else { return nil }
    return min(1, max(0, distance / rule.fullPullDistance))
  }

  /// How many waveform bars may show at `progress`; `nil` without a waveform reveal.
  public func barsRevealed(atProgress progress: Double) -> Int? {
    profile.reveal?.barsAllowed(atProgress: progress)
  }
}
