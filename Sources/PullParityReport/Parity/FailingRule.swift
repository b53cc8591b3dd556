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
  /// The failing rules come first, then those broken on too few sessions for a verdict, then
  /// those broken within their budget: a small sample shows its broken sessions too.
  package static func drawn(_ report: ParityReport, limit: Int = SessionTimeline.maxExamples) -> [FailingRule] {
    Array(broken(report).prefix(limit))
  }

  /// Every failing rule of `report` once per app and platform (whatever group it failed in), in
  /// the report's order: apps, groups, platforms, then the profile's rules.
  package static func all(_ report: ParityReport) -> [FailingRule] {
    found(report) { $0.verdict == .fail }
  }

  /// Every rule some session broke, whatever its verdict, once per app and platform: the
  /// failing ones (`all`), then those with too few sessions for a verdict, then the others.
  package static func broken(_ report: ParityReport) -> [FailingRule] {
    let shown = all(report) + tooFew(report)
    return shown + found(report) { $0.rate.numerator > 0 }.filter { !shown.contains($0) }
  }

  /// The rules broken on too few sessions for a verdict (and failing nowhere else), once per
  /// app and platform: what the reports name beside the failures.
  package static func tooFew(_ report: ParityReport) -> [FailingRule] {
    let failing = all(report)
    return found(report) { $0.isTooFewWithBreaks }.filter { !failing.contains($0) }
  }

  /// Rules whose result `matches`, once per app and platform, in the report's order.
  private static func found(_ report: ParityReport, _ matches: (RuleResult) -> Bool) -> [FailingRule] {
    var seen: Set<Key> = []
    var found: [FailingRule] = []
    for app in report.apps {
      for platform in app.groups.flatMap(\.orderedPlatforms) {
        for result in platform.rules where matches(result) {
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
