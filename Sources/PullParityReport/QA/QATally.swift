internal import PullParityCore
internal import PullParityStore

/// The QA checklist's counts that are not one of the profile's rules, each defined once: the
/// checklist and the stored digests count sessions with these.
package enum QATally: CaseIterable, Sendable {
  /// Pulls whose drawn offset strayed or whose samples came too far apart.
  case dragTracking
  /// Completed refreshes that loaded faster than the hold: did the indicator flash?
  case fastLoads
  /// Completed refreshes: hidden before the load completed?
  case prematureHide
  /// Completed refreshes: hidden too long after the hold and the load?
  case lateHide
  /// Completed refreshes of an empty screen: indicator and label copy shown?
  case emptyState
  /// Completed tab re-select refreshes: hold kept?
  case tabReselect

  /// Whether the item judges `session` (`nil`: it does not) and, if so, whether the session
  /// failed it, with `profile`'s numbers.
  ///
  /// A session is judged only where the measure the item reads exists: a flag the client's
  /// events left NULL (no `indicator_shown`, no `offset`, no label) is nothing checked, never a
  /// pass, so a client that does not log what an item needs gets "no data" for it.
  func verdict(_ session: SessionRecord, profile: DigestProfile) -> Bool? {
    let m = session.metrics
    let completed = m.outcome == .completed
    switch self {
    case .dragTracking:
      // The offset is what shows the indicator following the finger; the gap is judged with it.
      guard let offsetError = m.maxOffsetError else { return nil }
      return offsetError > QAChecklist.maxOffsetError || (m.maxSampleGapMs ?? 0) > QAChecklist.maxSampleGapMs
    case .fastLoads: return completed && (m.loadMs ?? .infinity) < profile.minHoldMs ? m.flash : nil
    case .prematureHide: return completed ? m.prematureHide : nil
    case .lateHide: return completed ? m.lateHide : nil
    case .emptyState: return completed && session.empty ? Self.emptyStateFailed(m, profile: profile) : nil
    case .tabReselect: return completed && m.trigger == .tabReselect ? m.holdCompliant.map { !$0 } : nil
    }
  }

  /// A completed empty-state refresh lacked the indicator when none was shown, and the copy
  /// when a label was wrong. One that showed the indicator but logged no label, in a profile
  /// with copy, says nothing about the copy: not judged.
  private static func emptyStateFailed(_ m: SessionMetrics, profile: DigestProfile) -> Bool? {
    if m.visibleMs == nil || (m.labelViolations ?? 0) > 0 { return true }
    return profile.hasLabelCopy && m.labelViolations == nil ? nil : false
  }
}
