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
    var counter = Counter(report)
    DayDigests(sessions, profiles: report.sessionProfiles).forEachDigest { counter.add($2, of: $1, day: Int($0)) }
    return counter.trends()
  }

  /// The rules some platform of some group of `app` fails, in the profile's rule order.
  static func failingRules(_ app: AppParity) -> [ProfileRule] {
    let platforms = app.groups.flatMap(\.platforms)
    return ProfileRule.allCases.filter { rule in platforms.contains { $0.rule(rule)?.verdict == .fail } }
  }

  /// The trends counted from the selection's digests by day and cell (a digest's rule tallies
  /// count as the rule table does): a count per rule, platform and day, never the sessions.
  package struct Counter {
    private struct AppKey: Hashable {
      var app: ByteIdentity
      var version: Int
    }

    private struct Entry {
      var app: String
      var rules: [ProfileRule]
      /// Per rule (as in `rules`), per platform, per day: the sessions that broke it of those it
      /// applies to.
      var counts: [[ByteIdentity: [Int: Rate]]]
    }

    private var entries: [Entry] = []
    private var index: [AppKey: Int] = [:]
    private var days: ClosedRange<Int>?

    package init(_ report: ParityReport) {
      for app in report.apps {
        let rules = RuleTrend.failingRules(app)
        index[AppKey(app: ByteIdentity(app.app), version: app.profile.version)] = entries.count
        entries.append(
          Entry(
            app: app.app, rules: rules, counts: Array(repeating: [:], count: rules.count)))
      }
    }

    /// Counts the sessions of `cell` that started on `day` (days since 1970-01-01, UTC).
    package mutating func add(_ digest: SessionDigest, of cell: SessionCell, day: Int) {
      guard digest.sessions > 0 else { return }
      days = days.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
      guard let at = index[AppKey(app: ByteIdentity(cell.app), version: cell.profileVersion)] else { return }
      let platform = ByteIdentity(cell.platform)
      for (r, rule) in entries[at].rules.enumerated() {
        let tally = digest.rules[Self.ruleIndex[rule]!]
        guard tally.judged > 0 else { continue }
        entries[at].counts[r][platform, default: [:]][day, default: Rate(numerator: 0, denominator: 0)].numerator +=
          tally.failing
        entries[at].counts[r][platform]![day]!.denominator += tally.judged
      }
    }

    private static let ruleIndex = Dictionary(uniqueKeysWithValues: ProfileRule.allCases.enumerated().map { ($1, $0) })

    /// One trend per failing rule of each app, one series per platform (in name order), one
    /// entry per day of every session added, `nil` where the rule judged none.
    package func trends() -> [RuleTrend] {
      guard let days else { return [] }
      return entries.flatMap { entry in
        zip(entry.rules, entry.counts).map { rule, platforms in
          RuleTrend(
            app: entry.app, rule: rule, firstDay: days.lowerBound,
            series: platforms.sorted { $0.key < $1.key }.map { platform, counts in
              Series(platform: platform.text, days: days.map { counts[$0] })
            })
        }
      }
    }
  }
}
