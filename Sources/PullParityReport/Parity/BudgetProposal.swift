package import PullParityCore

/// Budgets a team can adopt today and gate on tomorrow: each rule's budget set from what was
/// observed, so that `report --check` passes on today's data and fails when a rule gets worse.
///
/// A rule's proposed budget is the upper bound of the 95 % interval of its worst platform's
/// rate, rounded up to a whole percent: today's rate plus the noise its sample allows. A rule no
/// session broke keeps a budget of 0: there is nothing to freeze, and any break is news.
package struct BudgetProposal: Equatable, Sendable {
  package struct Line: Equatable, Sendable {
    package var profile: String
    package var rule: ProfileRule
    /// The worst platform's rate and its name.
    package var worst: RuleResult
    package var worstPlatform: String
    package var proposedPercent: Double
  }

  package var lines: [Line]
  /// Each profile in force with its proposed budgets and its version raised by one: a profile
  /// file to pass with `--profiles` (to `replay`, which stores it).
  package var profiles: [Profile]

  package init(_ report: ParityReport) {
    var worst: [String: [ProfileRule: (RuleResult, String)]] = [:]
    var profiles: [String: Profile] = [:]
    for app in report.apps {
      profiles[app.profile.name] = app.profile
      for platform in app.groups.flatMap(\.platforms) {
        for result in platform.rules where result.rate.denominator > 0 {
          let current = worst[app.profile.name]?[result.rule]
          if current.map({ Self.upperBound(result) > Self.upperBound($0.0) }) ?? true {
            worst[app.profile.name, default: [:]][result.rule] = (result, platform.platform)
          }
        }
      }
    }
    let lines = worst.keys.sorted().flatMap { name in
      ProfileRule.allCases.compactMap { rule in
        worst[name]?[rule].map { result, platform in
          Line(
            profile: name, rule: rule, worst: result, worstPlatform: platform,
            proposedPercent: Self.proposal(result))
        }
      }
    }
    self.lines = lines
    self.profiles = profiles.keys.sorted().map { name in
      var profile = profiles[name]!
      profile.version += 1
      for line in lines where line.profile == name { profile.budgets[line.rule] = line.proposedPercent }
      return profile
    }
  }

  private static func upperBound(_ result: RuleResult) -> Double { result.rate.wilson()?.high ?? 0 }

  /// 0 when nothing broke the rule, else the interval's upper bound rounded up to a percent.
  static func proposal(_ result: RuleResult) -> Double {
    guard result.rate.numerator > 0 else { return 0 }
    return min(100, (upperBound(result) * 100 - Measured.slack).rounded(.up))
  }
}

/// The profile file a proposal is written as: `{"profiles": [ … ]}`, what `--profiles` reads.
package struct ProposedProfileFile: Encodable {
  package var profiles: [Profile]

  package init(_ proposal: BudgetProposal) {
    profiles = proposal.profiles
  }
}
