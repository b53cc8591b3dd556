package import PullParityCore

/// A rule that some platform of an app fails: what the HTML report draws an example timeline
/// for, one session per rule and platform, so a page of many failures shows each once.
package struct FailingRule: Equatable, Sendable {
  package var app: String
  package var platform: String
  package var rule: ProfileRule

  package init(app: String, platform: String, rule: ProfileRule) {
    self.app = app
    self.platform = platform
    self.rule = rule
  }

  /// The violations a session that broke the rule has: its own kind, or for hold compliance
  /// (no finding of its own) the hides that break it.
  package var violationKinds: [ViolationKind] {
    rule.violationKind.map { [$0] } ?? [.flash, .prematureHide, .lateHide]
  }

  /// The failing rules whose example sessions a report draws: the first `limit` of `all`, so a
  /// database of many apps and platforms still makes a page of a few MB.
  package static func drawn(_ report: ParityReport, limit: Int = SessionTimeline.maxExamples) -> [FailingRule] {
    Array(all(report).prefix(limit))
  }

  /// Every failing rule of `report` once per app and platform (whatever group it failed in), in
  /// the report's order: apps, groups, platforms, then the profile's rules.
  package static func all(_ report: ParityReport) -> [FailingRule] {
    var seen: Set<Key> = []
    var found: [FailingRule] = []
    for app in report.apps {
      for platform in app.groups.flatMap(\.orderedPlatforms) {
        for result in platform.rules where result.verdict == .fail {
          let key = Key(app: ByteIdentity(app.app), platform: ByteIdentity(platform.platform), rule: result.rule)
          guard seen.insert(key).inserted else { continue }
          found.append(FailingRule(app: app.app, platform: platform.platform, rule: result.rule))
        }
      }
    }
    return found
  }

  /// Names byte for byte, as the report keeps them apart.
  private struct Key: Hashable {
    var app: ByteIdentity
    var platform: ByteIdentity
    var rule: ProfileRule
  }
}
