import PullParityCore
import PullParityReport
import PullParityStore

/// Compares two cohorts for the command line. A comparison that could not happen (a cohort with
/// no session, or with none of the trigger compared) is an error, never a pass: CI would go green
/// on a comparison that never happened.
struct CompareFrontend {
  var report: ReportFrontend

  func comparison(
    _ baseline: Cohort, _ candidate: Cohort, trigger: RefreshTrigger?, within filter: SessionFilter
  ) throws -> CohortComparison {
    let comparison =
      try fromDigests(baseline, candidate, trigger: trigger, within: filter)
      ?? fromSessions(baseline, candidate, trigger: trigger, within: filter)
    for (cohort, count) in [(baseline, comparison.baselineSessions), (candidate, comparison.candidateSessions)]
    where count == 0 {
      let sessions = (trigger.map { "\($0.rawValue) " } ?? "") + "sessions"
      throw CommandError(
        "the \(cohort.name) cohort (\(ReportHeader.filter(cohort.filter))) has no \(sessions) in "
          + "\(report.databaseName). Nothing was checked.")
    }
    return comparison
  }

  /// From the stored day digests of each cohort (`SelectionRead`): nil where they do not serve
  /// (a time that cuts a day, `--from-sessions`), or a cohort matched no session, whose error
  /// the sessions' path words.
  private func fromDigests(
    _ baseline: Cohort, _ candidate: Cohort, trigger: RefreshTrigger?, within filter: SessionFilter
  ) throws -> CohortComparison? {
    let profiles = try report.profiles()
    guard let before = try report.read.digests(baseline.filter, profiles: profiles), !before.isEmpty,
      let after = try report.read.digests(candidate.filter, profiles: profiles), !after.isEmpty
    else { return nil }
    try Self.checkOneApp(Array(before.keys) + Array(after.keys))
    var reference: (platform: String, cells: [SessionCell: SessionDigest])?
    let compared = Array(before.keys) + Array(after.keys)
    if let first = compared.min(by: {
      (ByteIdentity($0.profile), $0.profileVersion) < (ByteIdentity($1.profile), $1.profileVersion)
    }),
      profiles.profile(first.profile, version: first.profileVersion).profile.armThreshold == nil
    {
      var all = filter
      (all.app, all.platform) = (first.app, nil)
      guard let cells = try report.read.digests(all, profiles: profiles) else { return nil }
      let platforms = Set(cells.keys.map { ByteIdentity($0.platform) }).map(\.text)
      let profile = profiles.profile(first.profile, version: first.profileVersion).profile
      if let platform = ParityReportBuilder.referencePlatform(profile: profile, among: platforms),
        !compared.contains(where: { ByteIdentity($0.platform) == ByteIdentity(platform) })
      {
        reference = (platform, cells.filter { ByteIdentity($0.key.platform) == ByteIdentity(platform) })
      }
    }
    return CohortComparison(
      baseline: baseline, baselineCells: before, candidate: candidate, candidateCells: after, trigger: trigger,
      profiles: profiles, context: report.context(filter), reference: reference)
  }

  private func fromSessions(
    _ baseline: Cohort, _ candidate: Cohort, trigger: RefreshTrigger?, within filter: SessionFilter
  ) throws -> CohortComparison {
    // A cohort that matched nothing is almost always a typo in a selector.
    let before = try report.sessions(baseline.filter, what: "the baseline cohort")
    let after = try report.sessions(candidate.filter, what: "the candidate cohort")
    try Self.checkOneApp((before + after).map(SessionCell.init))
    let profiles = try report.profiles()
    return CohortComparison(
      baseline: baseline, baselineSessions: before, candidate: candidate, candidateSessions: after,
      trigger: trigger, profiles: profiles, context: report.context(filter),
      reference: try armReference(compared: before + after, within: filter, profiles: profiles))
  }

  private static func checkOneApp(_ cells: [SessionCell]) throws {
    let apps = Set(cells.map(\.app)).sorted()
    guard apps.count > 1 else { return }
    throw CommandError(
      "the cohorts hold sessions of several apps (\(apps.joined(separator: ", "))); choose one with --app")
  }

  /// The reference platform's sessions of the compared app, within the same filter, when its
  /// profile has no arming point: its arm distances are then what the cohorts' are judged
  /// against. None when a compared session is of the reference platform itself.
  private func armReference(
    compared: [SessionRecord], within filter: SessionFilter, profiles: SessionProfiles
  ) throws -> (platform: String, sessions: [SessionRecord])? {
    guard let first = compared.first else { return nil }
    let profile = profiles.profile(first.profile, version: first.profileVersion).profile
    guard profile.armThreshold == nil else { return nil }
    var all = filter
    all.app = first.app
    all.platform = nil
    let sessions = try report.queries.sessions(all)
    let platforms = Array(Set(sessions.map { ByteIdentity($0.platform) })).map(\.text)
    guard let reference = ParityReportBuilder.referencePlatform(profile: profile, among: platforms),
      !compared.contains(where: { ByteIdentity($0.platform) == ByteIdentity(reference) })
    else { return nil }
    return (reference, sessions.filter { ByteIdentity($0.platform) == ByteIdentity(reference) })
  }
}
