internal import PullParityCore
package import PullParityStore

/// Platforms compared per app, and each platform judged against its profile: what
/// `pullparity report` prints.
package struct ParityReport: Equatable, Sendable, Encodable {
  /// Bumped on any change of this JSON's shape; documented in docs/report-formats.md.
  package static let formatVersion = 2

  package var context: ReportContext
  package var groupedBy: GroupDimension
  package var apps: [AppParity]
  /// The `unexpected_event` findings by what arrived in which state, for the platforms where the
  /// rule found any (read from the violations, not the digests).
  package var unexpectedArrivals: [UnexpectedArrival] = []

  package var groups: [ParityGroup] { apps.flatMap(\.groups) }

  /// How `report --check` ends: a failure anywhere fails; nothing judged does not pass. A
  /// report where no group had two platforms to compare passes only when it is a one-platform
  /// gate (`judgesAlone`): each app's one platform within its profile's rules. Otherwise rules
  /// passed alone say nothing about the parity the check is for.
  package var outcome: GateOutcome {
    let outcome = context.policy.gate(groups.flatMap(\.verdicts))
    return outcome == .passed && count(.compared) == 0 && !judgesAlone ? .nothingJudged : outcome
  }

  /// Whether the check is a one-platform gate: every app of the selection has sessions of one
  /// platform only (an app shipped on one platform, or `--platform X`), so each is judged alone
  /// against its profile's rules and the check passes when they pass. An app with two
  /// platforms that no group compares (`--by app_version` where each version is one
  /// platform's) is not: its parity was never checked.
  package var judgesAlone: Bool {
    !apps.isEmpty
      && apps.allSatisfy { app in
        Set(app.groups.flatMap(\.platforms).map { ByteIdentity($0.platform) }).count == 1
      }
  }

  package var sessionCount: Int { groups.flatMap(\.platforms).reduce(0) { $0 + $1.sessions } }

  package func count(_ kind: GroupKind) -> Int { groups.count { $0.kind == kind } }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "format_version"
    case context, outcome, summary, apps
    case judgedAlone = "judged_alone"
    case tooFew = "too_few_for_a_verdict"
    case unexpectedArrivals = "unexpected_arrivals"
    case groupedBy = "grouped_by"
  }

  private struct Summary: Encodable {
    var sessions: Int
    var groupsCompared: Int
    var groupsJudgedAlone: Int
    var groupsSkipped: Int
    var groupsFailed: Int

    enum CodingKeys: String, CodingKey {
      case sessions
      case groupsCompared = "groups_compared"
      case groupsJudgedAlone = "groups_judged_alone"
      case groupsSkipped = "groups_skipped"
      case groupsFailed = "groups_failed"
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.formatVersion, forKey: .formatVersion)
    try container.encode(context, forKey: .context)
    try container.encode(groupedBy, forKey: .groupedBy)
    try container.encode(outcome, forKey: .outcome)
    try container.encode(judgesAlone, forKey: .judgedAlone)
    try container.encode(
      Summary(
        sessions: sessionCount, groupsCompared: count(.compared), groupsJudgedAlone: count(.judgedAlone),
        groupsSkipped: count(.skipped), groupsFailed: groups.count { $0.verdict == .fail }),
      forKey: .summary)
    try container.encode(SmallSample.all(self), forKey: .tooFew)
    try container.encode(apps, forKey: .apps)
    try container.encode(unexpectedArrivals, forKey: .unexpectedArrivals)
  }

  /// Judges every figure of the report as one family (`FamilyJudgement`): the comparisons and
  /// the rules of every group, so that the whole `report --check` holds its false alarms to 5 %.
  mutating func judgeTogether() {
    var evidence: [Evidence?] = []
    for group in groups {
      evidence += group.comparisons.map(\.evidence)
      evidence += group.platforms.flatMap(\.rules).map(\.evidence)
    }
    let (judgements, summary) = FamilyJudgement.judge(evidence)
    var next = judgements.makeIterator()
    for a in apps.indices {
      for g in apps[a].groups.indices {
        apps[a].groups[g].updateComparisons { $0.record(next.next()!) }
        for p in apps[a].groups[g].platforms.indices {
          for r in apps[a].groups[g].platforms[p].rules.indices {
            apps[a].groups[g].platforms[p].rules[r].record(next.next()!)
          }
        }
      }
    }
    context.family = summary
  }

  /// Whether any platform broke the `unexpected_event` rule: only then is the breakdown read.
  package var hasUnexpectedEvents: Bool {
    groups.contains { group in
      group.platforms.contains { $0.rules.contains { $0.rule == .unexpectedEvent && $0.rate.numerator > 0 } }
    }
  }
}
