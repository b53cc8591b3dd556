/// What happened to one figure from the baseline cohort to the candidate.
package enum CohortVerdict: String, Sendable, Codable {
  /// Worse than the baseline by more than the tolerance: fails `compare`.
  case regression
  /// Better than the baseline by more than the tolerance.
  case improvement
  /// Within the tolerance (for a rate: the change's interval reaches into the tolerance).
  case unchanged
  /// A cohort has fewer sessions than the minimum sample for this figure: no verdict.
  case insufficientData = "insufficient_data"
  /// A cohort has no value for the figure (no session armed, none completed...): not judged.
  case noData = "no_data"

  /// The verdict as `Verdict`, for the gate: a regression fails, a change within tolerance or an
  /// improvement passes.
  var gateVerdict: Verdict {
    switch self {
    case .regression: .fail
    case .improvement, .unchanged: .pass
    case .insufficientData: .insufficientData
    case .noData: .noData
    }
  }
}
