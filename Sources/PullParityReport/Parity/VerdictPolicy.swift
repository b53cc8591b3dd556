package import PullParityCore

/// What it takes to give a verdict, shared by `report`, `qa` and `compare`: the minimum sample,
/// the budgets set on the command line, and whether a gate fails for want of data.
package struct VerdictPolicy: Equatable, Sendable {
  /// 30 sessions: below it a single session moves a rate by more than 3 points, and the 95 %
  /// interval of a rate spans tens of points, so no verdict either way would mean much.
  package static let defaultMinSessions = 30

  package var minSessions: Int
  /// A gate fails on insufficient data too, not only on failures.
  package var requireData: Bool
  /// Budgets (percent) given on the command line; they replace the profile's own.
  package var budgets: [ProfileRule: Double]

  package init(minSessions: Int = defaultMinSessions, requireData: Bool = false, budgets: [ProfileRule: Double] = [:]) {
    self.minSessions = minSessions
    self.requireData = requireData
    self.budgets = budgets
  }

  package static let `default` = VerdictPolicy()

  /// The verdict on a figure counted from `n` sessions: none below the minimum sample, else
  /// whatever `failed` says.
  package func judge(n: Int, failed: () -> Bool) -> Verdict {
    if n == 0 { return .noData }
    if n < minSessions { return .insufficientData }
    return failed() ? .fail : .pass
  }

  /// The share of sessions (percent) that may break `rule` in an app with `profile`.
  package func budget(for rule: ProfileRule, in profile: Profile) -> Double {
    budgets[rule] ?? profile.budget(for: rule)
  }

  /// Whether `verdict` fails a gate for want of data: under `requireData`, a figure with no
  /// data at all wants it as much as one with too few sessions.
  package func wantsData(_ verdict: Verdict) -> Bool {
    requireData && (verdict == .insufficientData || verdict == .noData || verdict == .noProfile)
  }

  /// How a gate ends on these verdicts. Nothing judged is never a pass: a gate that checked
  /// nothing must not let a release through.
  package func gate(_ verdicts: some Sequence<Verdict>) -> GateOutcome {
    var judged = false
    var wanting = false
    for verdict in verdicts {
      if verdict == .fail { return .failed }
      judged = judged || verdict == .pass
      wanting = wanting || wantsData(verdict)
    }
    if !judged { return .nothingJudged }
    return wanting ? .insufficientData : .passed
  }
}
