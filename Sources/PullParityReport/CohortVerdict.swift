/// What happened to one metric from the baseline cohort to the candidate.
public enum CohortVerdict: String, Sendable, Codable {
  /// Worse than the baseline by more than the tolerance: fails `compare`.
  case regression
  /// Better than the baseline by more than the tolerance.
  case improvement
  /// Within the tolerance.
  case unchanged
  /// A cohort has no value for the metric (no session armed, none completed...): not judged.
  case noData = "no_data"
}
