package import PullParityCore

/// Budgets a team can adopt today and gate on tomorrow: each rule's budget set from what was
/// observed, so that `report --check` passes on today's data and fails when a rule gets worse.
///
/// A rule's proposed budget is the upper bound of the 95 % interval of its worst platform's
/// rate, rounded up to a whole percent: today's rate plus the noise its sample allows. A rule no
/// session broke keeps a budget of 0: there is nothing to freeze, and any break is news.
///
/// A budget must be able to fail: only platforms where the rule judged at least `minSessions`
/// sessions are drawn from (below that the interval spans tens of points: 2 dropped refreshes
/// of 2 armed releases would propose 100 %), and no budget is above `maxPercent`. A rule with
/// no such platform gets no proposal: its line says why, and the profile keeps its budget.
package struct BudgetProposal: Equatable, Sendable {
  /// The highest budget proposed: at 100 % a rule can never fail.
  package static let maxPercent = 99.0

  package struct Line: Equatable, Sendable {
    package var profile: String
    package var rule: ProfileRule
    /// The worst platform's rate and its name (among those with enough sessions, else among all).
    package var worst: RuleResult
    package var worstPlatform: String
    /// `nil` when no platform judged `minSessions` sessions of the rule: nothing proposed.
    package var proposedPercent: Double?
    /// The interval's bound was above `maxPercent`, which was proposed instead.
    package var capped = false

    /// Why no budget was proposed, or why it was capped; nil for an ordinary proposal.
    package func note(minSessions: Int) -> String? {
      if proposedPercent == nil {
        return "not proposed: \(worst.rate.denominator) sessions judged, fewer than \(minSessions) (--min-sessions)"
      }
      return capped ? "capped at \(NumberText.format(BudgetProposal.maxPercent))%: a budget of 100% never fails" : nil
    }
  }

  package var lines: [Line]
  /// The fewest sessions a platform's rule is drawn from (`--min-sessions`).
  package var minSessions: Int
  /// Each profile in force with its proposed budgets and its version raised by one: a profile
  /// file to pass with `--profiles` (to `replay`, which stores it).
  package var profiles: [Profile]

  package init(_ report: ParityReport, minSessions: Int = VerdictPolicy.defaultMinSessions) {
    self.minSessions = minSessions
    // Per profile and rule: the worst platform with enough sessions, and the worst of all.
    var worst: [String: [ProfileRule: (RuleResult, String)]] = [:]
    var worstSmall: [String: [ProfileRule: (RuleResult, String)]] = [:]
    var profiles: [String: Profile] = [:]
    for app in report.apps {
      profiles[app.profile.name] = app.profile
      for platform in app.groups.flatMap(\.platforms) {
        for result in platform.rules where result.rate.denominator > 0 {
          let enough = result.rate.denominator >= minSessions
          let current = enough ? worst[app.profile.name]?[result.rule] : worstSmall[app.profile.name]?[result.rule]
          guard current.map({ Self.upperBound(result) > Self.upperBound($0.0) }) ?? true else { continue }
          if enough {
            worst[app.profile.name, default: [:]][result.rule] = (result, platform.platform)
          } else {
            worstSmall[app.profile.name, default: [:]][result.rule] = (result, platform.platform)
          }
        }
      }
    }
    let names = Set(worst.keys).union(worstSmall.keys).sorted()
    let lines = names.flatMap { name in
      ProfileRule.allCases.compactMap { rule -> Line? in
        if let (result, platform) = worst[name]?[rule] {
          let bound = Self.bound(result)
          return Line(
            profile: name, rule: rule, worst: result, worstPlatform: platform,
            proposedPercent: min(Self.maxPercent, bound), capped: bound > Self.maxPercent)
        }
        return worstSmall[name]?[rule].map { result, platform in
          Line(profile: name, rule: rule, worst: result, worstPlatform: platform, proposedPercent: nil)
        }
      }
    }
    self.lines = lines
    self.profiles = profiles.keys.sorted().map { name in
      var profile = profiles[name]!
      profile.version += 1
      for line in lines where line.profile == name {
        if let proposed = line.proposedPercent { profile.budgets[line.rule] = proposed }
      }
      return profile
    }
  }

  private static func upperBound(_ result: RuleResult) -> Double { result.rate.wilson()?.high ?? 0 }

  /// 0 when nothing broke the rule, else the interval's upper bound rounded up to a percent.
  static func bound(_ result: RuleResult) -> Double {
    guard result.rate.numerator > 0 else { return 0 }
    return (upperBound(result) * 100 - Measured.slack).rounded(.up)
  }

  /// What the proposal would be for `result` alone: its bound, never above `maxPercent`.
  static func proposal(_ result: RuleResult) -> Double { min(maxPercent, bound(result)) }
}

/// The profile file a proposal is written as: `{"profiles": [ … ], "not_proposed": [ … ]}`,
/// what `--profiles` reads (it ignores `not_proposed`, which says which rules kept their budget
/// for want of sessions, and `capped`, the rules held below 100 %).
package struct ProposedProfileFile: Encodable {
  package var profiles: [Profile]
  package var notProposed: [Note]
  package var capped: [Note]

  package struct Note: Encodable, Equatable {
    package var profile: String
    package var rule: ProfileRule
    package var platform: String
    package var rate: Rate
    package var note: String
  }

  enum CodingKeys: String, CodingKey {
    case profiles, capped
    case notProposed = "not_proposed"
  }

  package init(_ proposal: BudgetProposal) {
    profiles = proposal.profiles
    let note = { (line: BudgetProposal.Line) in
      Note(
        profile: line.profile, rule: line.rule, platform: line.worstPlatform, rate: line.worst.rate,
        note: line.note(minSessions: proposal.minSessions) ?? "")
    }
    notProposed = proposal.lines.filter { $0.proposedPercent == nil }.map(note)
    capped = proposal.lines.filter(\.capped).map(note)
  }
}
