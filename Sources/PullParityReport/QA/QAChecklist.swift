internal import PullParityCore
package import PullParityStore

/// Evaluates the checklist (the Padel spec's items 1–6 and the equivalent checks of the FFCI and
/// Phlock rules) for every app and platform in the data.
package struct QAChecklist {
  /// Drag tracking: how far the drawn offset may stray from `distance × resistance` (pt/px),
  /// and the longest gap between pull samples while the finger moves (ms) — 100 ms is 10
  /// frames a second, where a drag visibly stutters. v1.2: the machine counts a longer gap only
  /// when the movement across it is in proportion to the pull's pace
  /// (`SessionMetrics.stutterShare`), so a resting finger that moves on is no stutter.
  package static let maxOffsetError = SessionMetrics.dragTolerance
  package static let maxSampleGapMs = SessionMetrics.ordinaryStepMs

  /// The profiles the sessions were derived with.
  package var profiles: SessionProfiles

  package init(profiles: SessionProfiles) {
    self.profiles = profiles
  }

  package func evaluate(sessions: [SessionRecord], context: ReportContext) -> QAReport {
    evaluate(context: context) { add in sessions.forEach(add) }
  }

  /// Evaluates the sessions `sessions` hands to `add` one at a time: each is counted into the
  /// digest of its app and platform, judged with the profile of the app's first session.
  package func evaluate(
    context: ReportContext, sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) rethrows -> QAReport {
    // Apps by their bytes, as the database keeps them apart (`SessionCell`).
    var firstProfile: [ByteIdentity: AppProfile] = [:]
    var digests: [ByteIdentity: [String: SessionDigest]] = [:]
    try sessions { session in
      let app = ByteIdentity(session.app)
      if firstProfile[app] == nil {
        let profile = profiles.profile(session.profile, version: session.profileVersion).profile
        firstProfile[app] = AppProfile(name: session.profile, version: session.profileVersion, rules: .init(profile))
      }
      digests[app, default: [:]][session.platform, default: SessionDigest()].add(
        session, profile: firstProfile[app]!.rules)
    }
    return evaluate(context: context, digests: digests, profileOf: firstProfile)
  }

  /// Evaluates digests by cell (stored ones): nil when an app's cells were derived with more
  /// than one profile version, since the checklist judges an app with the profile of its first
  /// session, which digests do not record.
  package func evaluate(context: ReportContext, digests: [SessionCell: SessionDigest]) -> QAReport? {
    var profileOf: [ByteIdentity: AppProfile] = [:]
    var byApp: [ByteIdentity: [String: SessionDigest]] = [:]
    for (cell, digest) in digests {
      let app = ByteIdentity(cell.app)
      if let known = profileOf[app],
        (ByteIdentity(known.name), known.version) != (ByteIdentity(cell.profile), cell.profileVersion)
      {
        return nil
      }
      if profileOf[app] == nil {
        let profile = profiles.profile(cell.profile, version: cell.profileVersion).profile
        profileOf[app] = AppProfile(name: cell.profile, version: cell.profileVersion, rules: .init(profile))
      }
      byApp[app, default: [:]][cell.platform, default: SessionDigest()].merge(digest)
    }
    return evaluate(context: context, digests: byApp, profileOf: profileOf)
  }

  /// The profile an app is judged with.
  private struct AppProfile {
    var name: String
    var version: Int
    var rules: DigestProfile
  }

  private func evaluate(
    context: ReportContext, digests: [ByteIdentity: [String: SessionDigest]], profileOf: [ByteIdentity: AppProfile]
  ) -> QAReport {
    var context = context
    for digest in digests.values.flatMap(\.values) { context.include(digest) }
    var items: [QAItemResult] = []
    // A set beside the list: thousands of apps each with a profile of its own stay linear.
    var stamped = Set(context.profiles)
    for app in digests.keys.sorted() {
      let (profile, stamp) = profiles.profile(profileOf[app]!.name, version: profileOf[app]!.version)
      if stamped.insert(stamp).inserted { context.profiles.append(stamp) }
      let byPlatform = digests[app]!
      let reference = ParityReportBuilder.referencePlatform(profile: profile, among: Array(byPlatform.keys))
      for platform in byPlatform.keys.sorted() {
        let platformContext = Context(
          app: app.text, platform: platform, profile: profile, digest: byPlatform[platform]!,
          reference: reference.flatMap { byPlatform[$0] }, referencePlatform: reference,
          tolerances: context.tolerances, policy: context.policy)
        for check in QACheck.allCases where check.applies(to: profile) {
          if let result = platformContext.evaluate(check) { items.append(result) }
        }
      }
    }
    var report = QAReport(context: context, items: items)
    report.judgeTogether()
    return report
  }

  private struct Context {
    var app: String
    var platform: String
    var profile: Profile
    var digest: SessionDigest
    var reference: SessionDigest?
    var referencePlatform: String?
    var tolerances: ParityTolerances
    var policy: VerdictPolicy

    func evaluate(_ check: QACheck) -> QAItemResult? {
      switch check {
      case .dragTracking: dragTracking()
      case .armParity: armParity()
      case .noFlash: noFlash()
      case .noPrematureHide: noPrematureHide()
      case .noLateHide: noLateHide()
      case .labelCopy: labelCopy()
      case .emptyState: emptyState()
      case .tabReselect: tabReselect()
      case .indicatorConfig, .revealOrder, .cacheOrder, .contentKeptOnError, .errorShown, .noDoubleRefresh,
        .refreshEnds, .armedReleaseRefreshes, .noEarlyRefresh, .holdCompliant, .noUnexpectedEvent, .noRepeatedRefresh:
        // Items that are their rule's rate against its budget, and nothing more.
        ruleCheck(check, check.rule!)
      }
    }

    private func dragTracking() -> QAItemResult {
      let pulls = counted(.dragTracking)
      guard profile.version > 0 else {
        var item = result(
          .dragTracking, pulls,
          evidence: "no profile: the drawn offset is checked against the app's resistance, which only a profile "
            + "states; \(NoProfileNote.advice)")
        item.status = .noProfile
        return item
      }
      // Judged: pulls with an offset; the worst figures are over every pull, offset or not.
      return result(
        .dragTracking, pulls,
        evidence:
          "\(pulls.failing) of \(pulls.judged) pulls strayed (offset error > \(fmt(QAChecklist.maxOffsetError)) or sample gap > \(fmt(QAChecklist.maxSampleGapMs)) ms); worst offset error \(fmt(digest.worstOffsetError)), worst gap \(fmt(digest.worstSampleGapMs)) ms"
      )
    }

    /// The client's arming against the profile's, and its p50 against the reference platform's.
    private func armParity() -> QAItemResult {
      let armed = digest.tally(of: ProfileRule.armMismatch)
      let p50 = Distribution(digest.values(of: .clientArmDistance)).p50
      var distance = "; client p50 \(fmt(p50))"
      var parity: Evidence?
      if let referencePlatform, referencePlatform != platform, let reference {
        let referenceValues = reference.values(of: .clientArmDistance)
        distance +=
          " vs \(referencePlatform) \(fmt(Distribution(referenceValues).p50)) (±\(fmt(tolerances.armDistance)))"
        parity = armDistanceParity(referenceValues)
      }
      var item = ruleResult(
        .armParity, .armMismatch, armed,
        evidence: "arm_mismatch in \(armed.failing) of \(armed.judged) sessions where the client armed",
        then: distance)
      if let parity {
        item.figures.append(parity)
        if item.status == .pass, FamilyJudgement.alone(parity).verdict == .fail { item.status = .fail }
      }
      return item
    }

    /// The client's p50 against the reference's, as `report` judges parity: when both sides
    /// have the minimum sample and enough values to bound their interval.
    private func armDistanceParity(_ referenceValues: [Double]) -> Evidence? {
      let values = digest.values(of: .clientArmDistance)
      guard min(values.count, referenceValues.count) >= policy.minSessions else { return nil }
      let evidence = Evidence.shift(
        after: MedianSample(values), before: MedianSample(referenceValues), allowed: tolerances.armDistance,
        direction: .eitherIsWorse)
      return evidence.canBeBounded ? evidence : nil
    }

    /// Judged as `report` judges the flash rule (every refresh whose visible time was measured,
    /// against the rule's budget), so that the budget `budgets` proposes holds here too; the
    /// fast loads, where a flash shows, are the evidence.
    private func noFlash() -> QAItemResult {
      let minHold = profile.minHoldMs
      let fast = counted(.noFlash)
      let flashes = digest.tally(of: ProfileRule.flash)
      return ruleResult(
        .noFlash, .flash, flashes,
        evidence:
          "\(fast.failing) of \(fast.judged) fast loads (< \(fmt(minHold)) ms) hid before \(fmt(minHold)) ms; "
          + "flash in \(flashes.failing) of \(flashes.judged) refreshes")
    }

    /// Judged as `report` judges the premature hide rule, against its budget.
    private func noPrematureHide() -> QAItemResult {
      let completed = digest.tally(of: ProfileRule.prematureHide)
      return ruleResult(
        .noPrematureHide, .prematureHide, completed,
        evidence:
          "\(completed.failing) of \(completed.judged) completed refreshes (\(digest.slowLoads) slow loads) hid before load_complete"
      )
    }

    /// Judged as `report` judges the late hide rule, against its budget.
    private func noLateHide() -> QAItemResult {
      let completed = digest.tally(of: ProfileRule.lateHide)
      return ruleResult(
        .noLateHide, .lateHide, completed,
        evidence:
          "\(completed.failing) of \(completed.judged) completed refreshes hid more than \(fmt(profile.hideSlackMs)) ms after the hold and load"
      )
    }

    private func labelCopy() -> QAItemResult {
      let labelled = digest.tally(of: ProfileRule.labelText)
      return ruleResult(
        .labelCopy, .labelText, labelled,
        evidence:
          "\(digest.labelViolations) labels with other copy in \(labelled.failing) of \(labelled.judged) sessions")
    }

    private func emptyState() -> QAItemResult {
      let empty = counted(.emptyState)
      return result(
        .emptyState, empty,
        evidence: "\(empty.failing) of \(empty.judged) empty-state refreshes lacked the indicator or the label copy")
    }

    /// Only apps that log tab re-selects get this item.
    private func tabReselect() -> QAItemResult? {
      let reselects = counted(.tabReselect)
      guard reselects.judged > 0 else { return nil }
      return result(
        .tabReselect, reselects,
        evidence: "\(reselects.failing) of \(reselects.judged) tab re-select refreshes broke the hold")
    }

    /// The sessions an item with a count of its own (`QACheck.tally`) judged, and those it failed.
    private func counted(_ check: QACheck) -> SessionTally {
      check.tally.map { digest.tally(of: $0) } ?? SessionTally()
    }

    /// Items that are one rule of the profile, counted as the report's rule table counts them.
    private func ruleCheck(_ check: QACheck, _ rule: ProfileRule) -> QAItemResult {
      let tally = digest.tally(of: rule)
      return ruleResult(
        check, rule, tally, evidence: "\(rule.rawValue) in \(tally.failing) of \(tally.judged) sessions")
    }

    /// An item that counts one rule of the profile is judged as `report` judges the rule: its
    /// rate against its budget (`--budget`, else the profile's), which the evidence names.
    /// `then` follows the budget in the evidence.
    private func ruleResult(
      _ check: QACheck, _ rule: ProfileRule, _ tally: SessionTally, evidence: String, then: String = ""
    ) -> QAItemResult {
      let judged = RuleEvaluator.result(rule, tally: tally, profile: profile, policy: policy)
      let rate = judged.rate.value.map { NumberText.oneDecimal($0 * 100) + "%, " } ?? ""
      var item = result(
        check, tally, evidence: evidence + " (\(rate)budget \(NumberText.format(judged.budgetPercent))%)" + then)
      item.status = judged.verdict
      item.budgetPercent = judged.budgetPercent
      item.figures = judged.evidence.map { [$0] } ?? []
      return item
    }

    private func result(_ check: QACheck, _ tally: SessionTally, evidence: String) -> QAItemResult {
      let status = policy.judge(n: tally.judged) { tally.failing > 0 }
      return QAItemResult(
        app: app, platform: platform, check: check, seedItem: check.seedItem, title: check.title,
        status: status, evidence: evidence, failing: tally.failing, checked: tally.judged,
        examples: tally.examples)
    }

    private func fmt(_ value: Double?) -> String {
      value.map { NumberText.format((($0 * 10).rounded()) / 10) } ?? "–"
    }
  }
}
