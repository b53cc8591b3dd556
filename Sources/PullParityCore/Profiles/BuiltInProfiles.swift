/// The three built-in profiles, from the specs of the Padel, FFCI and Phlock apps (docs/events.md §3).
/// Version 2: judged by the v1.1 rules as well (stuck, dropped, early and repeated refreshes).
public enum BuiltInProfiles {
  /// The Padel PWA ↔ iOS parity spec.
  public static let padel = Profile(
    name: "padel",
    version: 2,
    armThreshold: 24,
    resistance: .factor(0.72),
    minHoldMs: 1200,
    hideSlackMs: 250,
    indicator: IndicatorConfig(kind: .balls, count: 4, staggerMs: 120, cycleMs: 800),
    labels: LabelCopy(
      pulling: "Dra för att ladda senaste padelnytt...",
      ready: "Släpp för att uppdatera",
      refreshing: "Padelbollarna studsar medan vi laddar..."
    ),
    // The spec asks iOS to match the PWA ("near same drag distance as PWA").
    referencePlatform: "pwa",
    // The spec says "24pt/px": one number for both platforms.
    unit: .pt,
    // The PWA names its routes, the iOS app its views.
    screens: ["feed": ["pwa": "feed", "ios": "FeedView"], "matches": ["pwa": "matches", "ios": "MatchesView"]]
  )

  /// The FFCI iOS `.refreshable` ticket.
  public static let ffci = Profile(
    name: "ffci",
    version: 2,
    armThreshold: nil,
    resistance: .factor(1),
    minHoldMs: 0,
    hideSlackMs: 250,
    indicator: IndicatorConfig(kind: .native),
    cacheInvalidationScreens: ["TabPageView"],
    errorMustBeShown: true
  )

  /// The Phlock waveform indicator.
  public static let phlock = Profile(
    name: "phlock",
    version: 2,
    armThreshold: 80,
    resistance: .factor(1),
    minHoldMs: 1300,
    // 300 ms fade-out plus a frame.
    hideSlackMs: 350,
    indicator: IndicatorConfig(kind: .waveform, count: 5, staggerMs: 100, cycleMs: 500),
    reveal: RevealRule(bars: 5, progressStep: 0.2, fullPullDistance: 80)
  )

  public static let all: [Profile] = [padel, ffci, phlock]
}
