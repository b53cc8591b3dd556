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
  /// failed it. `minHoldMs` is the profile's.
  func verdict(_ session: SessionRecord, minHoldMs: Double) -> Bool? {
    let m = session.metrics
    let completed = m.outcome == .completed
    switch self {
    case .dragTracking:
      guard m.maxSampleGapMs != nil || m.maxOffsetError != nil else { return nil }
      return (m.maxOffsetError ?? 0) > QAChecklist.maxOffsetError
        || (m.maxSampleGapMs ?? 0) > QAChecklist.maxSampleGapMs
    case .fastLoads: return completed && (m.loadMs ?? .infinity) < minHoldMs ? m.flash == true : nil
    case .prematureHide: return completed ? m.prematureHide == true : nil
    case .lateHide: return completed ? m.lateHide == true : nil
    case .emptyState: return completed && session.empty ? m.visibleMs == nil || (m.labelViolations ?? 0) > 0 : nil
    case .tabReselect: return completed && m.trigger == .tabReselect ? m.holdCompliant == false : nil
    }
  }
}
