package import PullParityCore

/// A rule that sessions broke on a platform where the rule had too few sessions for a verdict:
/// "2 stuck refreshes in 5 sessions: too few for a verdict". Every format says so, with example
/// session ids, so that a small sample never reads as "no rule fails".
package struct SmallSample: Equatable, Sendable, Encodable {
  package var app: String
  package var group: String
  package var platform: String
  package var rule: ProfileRule
  package var broken: Int
  package var judged: Int
  package var examples: [String]

  /// "2 stuck refreshes in 5 sessions: too few for a verdict".
  package var note: String { Self.note(rule, broken: broken, judged: judged) }

  /// Every rule result of `report` that sessions broke but that had too few sessions for a
  /// verdict, in report order (apps, groups, platforms, the profile's rules).
  package static func all(_ report: ParityReport) -> [SmallSample] {
    report.apps.flatMap { app in
      app.groups.flatMap { group in
        group.orderedPlatforms.flatMap { platform in
          platform.rules.filter(\.isTooFewWithBreaks).map {
            SmallSample(
              app: app.app, group: group.value, platform: platform.platform, rule: $0.rule,
              broken: $0.rate.numerator, judged: $0.rate.denominator, examples: $0.examples)
          }
        }
      }
    }
  }

  /// "2 stuck refreshes in 5 sessions: too few for a verdict".
  package static func note(_ rule: ProfileRule, broken: Int, judged: Int) -> String {
    "\(breaks(rule, broken)) in \(judged == 1 ? "1 session" : "\(judged) sessions"): too few for a verdict"
  }

  /// "2 stuck refreshes", "1 session with unexpected events": what the rule's breaks are called.
  package static func breaks(_ rule: ProfileRule, _ n: Int) -> String {
    let (one, many): (String, String) =
      switch rule {
      case .stuckRefresh: ("stuck refresh", "stuck refreshes")
      case .droppedRefresh: ("dropped refresh", "dropped refreshes")
      case .repeatedRefresh: ("repeated refresh", "repeated refreshes")
      case .refreshBeforeRelease: ("refresh before release", "refreshes before release")
      case .unexpectedEvent: ("session with unexpected events", "sessions with unexpected events")
      case .flash: ("flash", "flashes")
      case .prematureHide: ("premature hide", "premature hides")
      case .lateHide: ("late hide", "late hides")
      default: ("session breaking \(rule.rawValue)", "sessions breaking \(rule.rawValue)")
      }
    return "\(n) \(n == 1 ? one : many)"
  }

  enum CodingKeys: String, CodingKey {
    case app, group, platform, rule, broken, judged, examples, note
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(app, forKey: .app)
    try container.encode(group, forKey: .group)
    try container.encode(platform, forKey: .platform)
    try container.encode(rule, forKey: .rule)
    try container.encode(broken, forKey: .broken)
    try container.encode(judged, forKey: .judged)
    try container.encode(examples, forKey: .examples)
    try container.encode(note, forKey: .note)
  }
}

extension RuleResult {
  /// Sessions broke the rule, but too few were judged for a verdict.
  package var isTooFewWithBreaks: Bool { verdict == .insufficientData && rate.numerator > 0 }

  /// What a format says beside the figure of a rule broken on too few sessions; nil otherwise.
  package var tooFewNote: String? {
    isTooFewWithBreaks ? SmallSample.note(rule, broken: rate.numerator, judged: rate.denominator) : nil
  }
}
