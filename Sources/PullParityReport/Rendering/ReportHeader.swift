internal import PullParityCore
package import PullParityStore

/// The context lines every human-readable format opens with: what was read, which rules judged
/// it, and when. Values from the data are returned raw; each format escapes them its own way.
package enum ReportHeader {
  /// `app=padel platform=ios since=2026-11-18T00:00:00Z`, in the cohort selectors' words, or
  /// `all sessions`.
  package static func filter(_ filter: SessionFilter) -> String {
    var parts: [String] = []
    if let app = filter.app { parts.append("app=\(app)") }
    if let platform = filter.platform { parts.append("platform=\(platform)") }
    if let version = filter.appVersion { parts.append("app_version=\(version)") }
    if let screen = filter.screen { parts.append("screen=\(screen)") }
    if let since = filter.sinceMs { parts.append("since=\(time(since))") }
    if let until = filter.untilMs { parts.append("until=\(time(until))") }
    return parts.isEmpty ? "all sessions" : parts.joined(separator: " ")
  }

  /// Whole seconds read better without ".000".
  private static func time(_ ms: Double) -> String {
    let text = ReportContext.rfc3339(ms)
    return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
  }

  /// The lines, each a label and a value.
  package static func lines(_ context: ReportContext) -> [(label: String, value: String)] {
    var span = "none"
    if let first = context.firstSessionMs, let last = context.lastSessionMs {
      span = "\(ReportContext.rfc3339(first)) to \(ReportContext.rfc3339(last))"
    }
    let profiles = context.profiles.map { stamp in
      "\(stamp.name) v\(stamp.version) (\(stamp.contentHash)\(stamp.stored ? "" : ", not stored"))"
    }
    var rules = "a verdict needs \(context.policy.minSessions) sessions"
    if let family = context.family { rules += "; " + Self.family(family) }
    if context.policy.requireData { rules += "; too few sessions or none fail the check (--require-data)" }
    if !context.policy.budgets.isEmpty {
      let budgets = context.policy.budgets.sorted { $0.key.rawValue < $1.key.rawValue }
        .map { "\($0.key.rawValue) \(NumberText.format($0.value))%" }.joined(separator: ", ")
      rules += "; budgets " + budgets
    }
    var lines: [(label: String, value: String)] = [
      ("Database", context.database),
      ("Filter", filter(context.filter)),
      ("Sessions started", span),
      ("Profiles", profiles.isEmpty ? "none" : profiles.joined(separator: ", ")),
      ("Tolerances", ParityVerdict.tolerances(context.tolerances)),
      ("Verdicts", rules),
      ("Made by", "pullparity \(context.toolVersion) at \(ReportContext.rfc3339(context.generatedAtMs))"),
    ]
    if let note = NoProfileNote.line(apps: context.profiles.filter { $0.version == 0 }.map(\.name)) {
      lines.insert(("No profile", note), at: 4)
    }
    if let suspects = suspects(context.suspectSessions) { lines.append(("Suspect sessions", suspects)) }
    if let pending = pending(context.pending) { lines.append(("Pending", pending)) }
    return lines
  }

  /// `24 figures judged: 10 by interval, false alarms held to 5 % for the run (Holm), 14 exactly`.
  package static func family(_ family: FamilyJudgement.Summary) -> String {
    let percent = NumberText.format(FamilyJudgement.alpha * 100)
    var text =
      "\(family.judged) figures judged: \(family.tested) by interval, false alarms held to \(percent)% "
      + "for the run (Holm)"
    if family.exact > 0 { text += ", \(family.exact) against a 0% budget (one break fails)" }
    return text
  }

  /// v1.2: `padel/pwa 1 session (stuck or dropped refresh not judged until the data reaches
  /// 2026-…Z)`: pending is said, never counted as a pass.
  package static func pending(_ cells: [PendingCell]) -> String? {
    guard !cells.isEmpty else { return nil }
    return cells.map { cell in
      let until =
        cell.firstDecidedAtMs == cell.lastDecidedAtMs
        ? ReportContext.rfc3339(cell.lastDecidedAtMs)
        : "\(ReportContext.rfc3339(cell.firstDecidedAtMs)) to \(ReportContext.rfc3339(cell.lastDecidedAtMs))"
      return "\(cell.app)/\(cell.platform) \(cell.sessions) session\(cell.sessions == 1 ? "" : "s") waiting for the "
        + "data to reach \(until) (stuck or dropped refresh not judged yet)"
    }.joined(separator: "; ")
  }

  /// `1 with more than 100000 events (one constant session_id?): undefined 1000000`, the
  /// three biggest named.
  private static func suspects(_ sessions: [SuspectSession]) -> String? {
    guard !sessions.isEmpty else { return nil }
    let named = sessions.prefix(3).map { "\($0.sessionID) (\($0.events) events)" }.joined(separator: ", ")
    let more = sessions.count > 3 ? ", …" : ""
    return "\(sessions.count) with more than \(SessionSize.suspectEventCount) events, counted like any other "
      + "(a client sending one constant session_id?): \(named)\(more)"
  }
}
