package import PullParityCore
package import PullParityStore

/// One failing rule of one app, day by day: per platform, the share of each UTC day's sessions
/// that broke it, counted as the rule table counts (`RuleEvaluator`). A day with no session the
/// rule applies to has no rate (`nil`), which a chart draws as a gap: "nothing measured" is not
/// "nothing broken".
package struct RuleTrend: Equatable, Sendable {
  package struct Series: Equatable, Sendable {
    package var platform: String
    /// One entry per day from `firstDay`, in order.
    package var days: [Rate?]
  }

  package var app: String
  package var rule: ProfileRule
  /// Days since 1970-01-01 (UTC) of the first entry of every series.
  package var firstDay: Int
  package var series: [Series]

  package static let dayMs = 86_400_000.0

  package static func day(ofMs ms: Double) -> Int { Int((ms / dayMs).rounded(.down)) }

  /// A trend for every rule that fails somewhere in an app (in any group, on any platform),
  /// over every day of the selection, so all of them share one time axis; apps and rules in the
  /// report's order. Sessions count for the app entry of their profile version, as in the report.
  package static func trends(_ report: ParityReport, sessions: [SessionRecord]) -> [RuleTrend] {
    let days = sessions.map { day(ofMs: $0.startedAtMs) }
    guard let first = days.min(), let last = days.max() else { return [] }
    return report.apps.flatMap { app in
      let own = sessions.filter {
        ByteIdentity($0.app) == ByteIdentity(app.app) && $0.profileVersion == app.profile.version
      }
      return failingRules(app).map { rule in
        RuleTrend(
          app: app.app, rule: rule, firstDay: first,
          series: series(rule, own, profile: app.profile, days: first...last))
      }
    }
  }

  /// The rules some platform of some group of `app` fails, in the profile's rule order.
  static func failingRules(_ app: AppParity) -> [ProfileRule] {
    let platforms = app.groups.flatMap(\.platforms)
    return ProfileRule.allCases.filter { rule in platforms.contains { $0.rule(rule)?.verdict == .fail } }
  }

  /// One series per platform, platforms in name order.
  private static func series(
    _ rule: ProfileRule, _ sessions: [SessionRecord], profile: Profile, days: ClosedRange<Int>
  ) -> [Series] {
    let cacheScreens = Set(profile.cacheInvalidationScreens)
    let none = Array(repeating: Rate(numerator: 0, denominator: 0), count: days.count)
    var counts: [ByteIdentity: [Rate]] = [:]
    for session in sessions {
      guard let broke = RuleEvaluator.verdict(rule, session, cacheScreens: cacheScreens) else { continue }
      let index = day(ofMs: session.startedAtMs) - days.lowerBound
      // In place: no copy of the platform's days per session.
      counts[ByteIdentity(session.platform), default: none][index].denominator += 1
      if broke { counts[ByteIdentity(session.platform), default: none][index].numerator += 1 }
    }
    return counts.sorted { $0.key < $1.key }.map { platform, rates in
      Series(platform: platform.text, days: rates.map { $0.denominator == 0 ? nil : $0 })
    }
  }
}
